using Folio.Indexing.Definitions;

namespace Folio.Indexing.Documents;

/// <summary>
/// What a set of map/reduce definitions may do with output collections: each belongs to one index, and no
/// chain of indexes feeds its results back into itself (A reads Orders and writes Totals, B reads Totals and
/// writes Orders: each batch of one would start a batch of the other, without end).
/// </summary>
internal static class OutputCollectionCheck
{
    /// <summary>Throws naming the problem when <paramref name="incoming"/>, replacing the indexes of the same names among <paramref name="existing"/>, break a rule.</summary>
    /// <exception cref="IndexDefinitionException">Two indexes write to one collection, or results would feed back.</exception>
    public static void Check(IReadOnlyList<IndexDefinition> incoming, IEnumerable<IndexDefinition> existing)
    {
        var final = new Dictionary<string, IndexDefinition>(StringComparer.OrdinalIgnoreCase);
        foreach (var definition in existing)
            final[definition.Name] = definition;
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
            if (definition.OutputCollection is { } output && Reaches(feeds, output, definition.Collections, []))
                throw new IndexDefinitionException($"OutputCollection '{output}' of index '{definition.Name}' is read, through other indexes' output collections, back into the collections it reads.");
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
        if (!seen.Add(from.ToLowerInvariant()) || !feeds.TryGetValue(from, out var next))
            return false;
        foreach (var collection in next)
        {
            if (Reaches(feeds, collection, targets, seen))
                return true;
        }
        return false;
    }
}
