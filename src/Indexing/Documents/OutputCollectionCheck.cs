using Folio.Indexing.Definitions;
using Folio.Storage.Documents;

namespace Folio.Indexing.Documents;

/// <summary>
/// What a set of map/reduce definitions may do with output collections: each belongs to one index, and no
/// chain of indexes feeds its results back into itself (A reads Orders and writes Totals, B reads Totals and
/// writes Orders: each batch of one would start a batch of the other, without end), and a new output
/// collection holds no documents an index did not write (they would be overwritten or deleted).
/// </summary>
internal static class OutputCollectionCheck
{
    /// <summary>
    /// Throws naming the problem when <paramref name="incoming"/>, replacing the indexes of the same names among
    /// <paramref name="existing"/> (by name), break a rule; <paramref name="reader"/> counts the documents of a
    /// collection, and <paramref name="beingEmptied"/> tells the collections a gone index's documents are being removed from.
    /// </summary>
    /// <exception cref="IndexDefinitionException">Two indexes write to one collection, results would feed back, or the collection holds other documents.</exception>
    public static void Check(IReadOnlyList<IndexDefinition> incoming, IReadOnlyDictionary<string, IndexDefinition> existing, DocumentReader reader, Func<string, bool> beingEmptied)
    {
        var final = new Dictionary<string, IndexDefinition>(StringComparer.OrdinalIgnoreCase);
        foreach (var (name, definition) in existing)
            final[name] = definition;
        foreach (var definition in incoming)
            final[definition.Name] = definition;

        var owners = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        var feeds = new Dictionary<string, HashSet<string>>(StringComparer.OrdinalIgnoreCase);
        foreach (var definition in final.Values)
        {
            if (definition.OutputCollection is not { } output)
                continue;
            if (owners.TryGetValue(output, out var owner))
                throw new IndexDefinitionException($"OutputCollection '{output}' is written by index '{owner}' already; an output collection belongs to one index.");
            owners[output] = definition.Name;
            foreach (var source in definition.Collections)
            {
                if (!feeds.TryGetValue(source, out var targets))
                    feeds[source] = targets = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
                targets.Add(output);
            }
        }
        foreach (var definition in incoming)
        {
            if (definition.OutputCollection is not { } output)
                continue;
            if (Reaches(feeds, output, definition.Collections, new HashSet<string>(StringComparer.OrdinalIgnoreCase)))
                throw new IndexDefinitionException($"OutputCollection '{output}' of index '{definition.Name}' is read, through other indexes' output collections, back into the collections it reads.");
            if (beingEmptied(output) || (existing.TryGetValue(definition.Name, out var current) && string.Equals(current.OutputCollection, output, StringComparison.OrdinalIgnoreCase)))
                continue;
            var count = reader.CountInCollection(output);
            if (count > 0)
                throw new IndexDefinitionException($"OutputCollection '{output}' holds {count} documents no index wrote; an index's output collection must start empty.");
        }
    }

    /// <summary>Whether following the outputs from <paramref name="from"/> leads to one of <paramref name="targets"/>.</summary>
    private static bool Reaches(Dictionary<string, HashSet<string>> feeds, string from, IReadOnlyList<string> targets, HashSet<string> seen)
    {
        foreach (var target in targets)
        {
            if (string.Equals(target, from, StringComparison.OrdinalIgnoreCase))
                return true;
        }
        if (!seen.Add(from) || !feeds.TryGetValue(from, out var next))
            return false;
        foreach (var collection in next)
        {
            if (Reaches(feeds, collection, targets, seen))
                return true;
        }
        return false;
    }
}
