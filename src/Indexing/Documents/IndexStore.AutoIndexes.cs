using Folio.Indexing.Definitions;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Documents;

public sealed partial class IndexStore
{
    /// <summary>
    /// The auto index a query on <paramref name="collection"/> needs: one that already has every field
    /// asked for, or a new one with those fields plus the fields of the collection's other auto indexes
    /// (which it replaces once it has caught up). Returns the index and whether it was just created.
    /// </summary>
    /// <param name="collection">The collection queried.</param>
    /// <param name="exactFields">The paths the query compares, sorts or facets on.</param>
    /// <param name="searchFields">The paths the query searches with <c>search()</c>.</param>
    /// <param name="caseSensitiveFields">The paths the query compares case-sensitively (<c>exact()</c>, <c>regex()</c>), kept in a twin <c>exact(Path)</c>.</param>
    /// <param name="spatialFields">The points the query relates to shapes or orders by distance (<c>spatial.point(…)</c>).</param>
    public (DocumentIndex Index, bool Created) GetOrCreateAutoIndex(string collection, IReadOnlyCollection<FieldPath> exactFields, IReadOnlyCollection<FieldPath> searchFields,
        IReadOnlyCollection<FieldPath>? caseSensitiveFields = null, IReadOnlyCollection<Spatial.SpatialSource>? spatialFields = null)
    {
        caseSensitiveFields ??= [];
        spatialFields ??= [];
        lock (_lock)
        {
            var wanted = new HashSet<string>(StringComparer.Ordinal);
            foreach (var field in exactFields)
                wanted.Add(AutoIndexNaming.FieldName(field));
            foreach (var field in searchFields)
                wanted.Add(AutoIndexNaming.SearchFieldName(field));
            foreach (var field in caseSensitiveFields)
                wanted.Add(AutoIndexNaming.ExactFieldName(field));
            foreach (var source in spatialFields)
                wanted.Add(AutoIndexNaming.SpatialFieldName(source));

            var sameCollection = new List<DocumentIndex>();
            foreach (var index in _active.Values)
            {
                if (!index.Definition.IsAuto || index.Definition.Reduce is not null || !string.Equals(index.Definition.Collections[0], collection, StringComparison.OrdinalIgnoreCase))
                    continue;
                sameCollection.Add(index);
                if (Covers(index.Definition, wanted))
                    return (index, false);
            }

            var fields = new Dictionary<string, IndexFieldDefinition>(StringComparer.Ordinal);
            foreach (var index in sameCollection)
            {
                foreach (var (fieldName, field) in index.Definition.Fields)
                    fields.TryAdd(fieldName, field);
            }
            foreach (var field in exactFields)
                fields.TryAdd(AutoIndexNaming.FieldName(field), new IndexFieldDefinition(field, IndexFieldType.Auto));
            foreach (var field in searchFields)
                fields.TryAdd(AutoIndexNaming.SearchFieldName(field), new IndexFieldDefinition(field, Search: true));
            foreach (var field in caseSensitiveFields)
                fields.TryAdd(AutoIndexNaming.ExactFieldName(field), new IndexFieldDefinition(field, CaseSensitive: true));
            foreach (var source in spatialFields)
                fields.TryAdd(AutoIndexNaming.SpatialFieldName(source), IndexFieldDefinition.ForSpatial(source));

            var ordered = new List<string>(fields.Count);
            foreach (var (fieldName, field) in fields)
                ordered.Add(field.Search ? $"Search({AutoIndexNaming.FieldName(field.Path)})" : field.CaseSensitive ? $"Exact({AutoIndexNaming.FieldName(field.Path)})" : field.Spatial is not null ? "S" + fieldName[1..] : fieldName);
            ordered.Sort(StringComparer.Ordinal);
            var name = AutoIndexNaming.IndexName(collection, ordered);
            var definition = new IndexDefinition(name, [collection], fields).WithSearchEngine(_options.SearchEngine);
            var created = CreateWidening(definition, sameCollection);
            _logger.LogInformation("Created auto index {Index} for a query on {Collection}", name, collection);
            return (created, true);
        }
    }

    /// <summary>
    /// The auto map/reduce index a group by query on <paramref name="collection"/> reads: one grouping by the
    /// same fields that has every aggregation wanted, or a new one with them and the aggregations of the
    /// others grouping by the same fields, which it replaces once it has caught up (as auto indexes widen).
    /// Named <c>Auto/{Collection}/By{Aggregations}ReducedBy{Groups}</c>.
    /// </summary>
    /// <exception cref="IndexDefinitionException">The groups and aggregations make no valid definition (an aggregate named like a group field).</exception>
    public (DocumentIndex Index, bool Created) GetOrCreateAutoMapReduce(string collection, IReadOnlyList<GroupByField> groupBy, IReadOnlyList<AggregationDefinition> aggregations)
    {
        lock (_lock)
        {
            var sameGroups = new List<DocumentIndex>();
            foreach (var index in _active.Values)
            {
                if (!index.Definition.IsAuto || index.Definition.Reduce is not { } reduce
                    || !string.Equals(index.Definition.Collections[0], collection, StringComparison.OrdinalIgnoreCase) || !SameGroups(reduce.GroupBy, groupBy))
                {
                    continue;
                }
                sameGroups.Add(index);
                if (HasAll(reduce.Aggregations, aggregations))
                    return (index, false);
            }

            var merged = new SortedDictionary<string, AggregationDefinition>(StringComparer.Ordinal);
            foreach (var index in sameGroups)
            {
                foreach (var aggregation in index.Definition.Reduce!.Aggregations)
                    merged.TryAdd(aggregation.Name, aggregation);
            }
            foreach (var aggregation in aggregations)
                merged.TryAdd(aggregation.Name, aggregation);
            var groupNames = new List<string>(groupBy.Count);
            foreach (var group in groupBy)
                groupNames.Add(group.Name);
            var name = AutoIndexNaming.MapReduceIndexName(collection, [.. merged.Keys], groupNames);
            var definition = new IndexDefinition(name, [collection], new ReduceDefinition(groupBy, [.. merged.Values])).WithSearchEngine(_options.SearchEngine);
            var created = CreateWidening(definition, sameGroups);
            _logger.LogInformation("Created auto map/reduce index {Index} for a group by query on {Collection}", name, collection);
            return (created, true);
        }
    }

    /// <summary>Creates and saves an auto index that retires <paramref name="narrower"/> once it has caught up; call under the lock.</summary>
    private DocumentIndex CreateWidening(IndexDefinition definition, List<DocumentIndex> narrower)
    {
        var created = Create(definition, IndexSettings.Default);
        _active[definition.Name] = created;
        if (narrower.Count > 0)
        {
            var names = new List<string>(narrower.Count);
            foreach (var index in narrower)
                names.Add(index.Name);
            _retireWhenCaughtUp[definition.Name] = names;
        }
        SaveCatalog();
        return created;
    }

    private static bool SameGroups(IReadOnlyList<GroupByField> existing, IReadOnlyList<GroupByField> wanted)
    {
        if (existing.Count != wanted.Count)
            return false;
        for (var i = 0; i < existing.Count; i++)
        {
            if (!string.Equals(existing[i].Name, wanted[i].Name, StringComparison.Ordinal) || !string.Equals(existing[i].Path.Text, wanted[i].Path.Text, StringComparison.Ordinal)
                || existing[i].WholeArray != wanted[i].WholeArray)
                return false;
        }
        return true;
    }

    private static bool HasAll(IReadOnlyList<AggregationDefinition> existing, IReadOnlyList<AggregationDefinition> wanted)
    {
        foreach (var aggregation in wanted)
        {
            var found = false;
            foreach (var candidate in existing)
                found |= string.Equals(candidate.Name, aggregation.Name, StringComparison.Ordinal);
            if (!found)
                return false;
        }
        return true;
    }

    private static bool Covers(IndexDefinition definition, HashSet<string> wanted)
    {
        foreach (var field in wanted)
        {
            if (!definition.Fields.ContainsKey(field))
                return false;
        }
        return true;
    }
}
