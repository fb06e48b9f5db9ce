using Folio.Indexing.Documents;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Rql;

namespace Folio.Indexing.Querying;

/// <summary>The documents a set-based operation (patch or delete by query) works through.</summary>
public sealed partial class QueryRunner
{
    /// <summary>Parses <paramref name="text"/> (through the same cache as queries), for callers that look at its parts first.</summary>
    public RqlQuery Parse(string text) => _parsed.Parse(text);

    /// <summary>
    /// The ids of every document <paramref name="query"/> selects, as of one snapshot, ignoring its paging, order and
    /// <c>update</c>. A set-based operation takes them all first and then changes documents in batches: paging through
    /// a query whose matches the operation itself changes would skip or repeat documents. Ids are small next to the
    /// documents (a million are tens of megabytes). Facets, group by, projections and map/reduce indexes select no
    /// documents and are refused.
    /// </summary>
    public async Task<List<string>> MatchingIdsAsync(RqlQuery query, QueryOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(query);
        ValidateFilter(query, options);
        var ids = await RetrievedIdsAsync(query, options, cancellationToken).ConfigureAwait(false);
        return query.Filters ? FilteredIds(query, options, ids, cancellationToken) : ids;
    }

    private async Task<List<string>> RetrievedIdsAsync(RqlQuery query, QueryOptions options, CancellationToken cancellationToken)
    {
        if (query.Facets.Count > 0 || query.Suggestions.Count > 0 || query.GroupBy.Count > 0 || query.Select.Count > 0 || query.ScriptProjection is not null)
            throw new QueryException("A patch or delete by query works on documents: it cannot have facets, suggestions, group by or a select.");
        var ids = new List<string>();
        var where = query.Where is RqlTrue ? null : query.Where;
        if (query.From.Collection is { } collection && (where is null || IdLookups(where, options.Parameters) is not null))
        {
            using var reader = store.OpenReader();
            if (where is null)
            {
                var cursor = CollectionScope.Cursor(reader, collection);
                while (cursor.MoveNext())
                    ids.Add(cursor.Current.IdString);
                return ids;
            }
            foreach (var id in IdLookups(where, options.Parameters)!)
            {
                if (reader.TryGet(id, out var document) && CollectionScope.Contains(collection, document.CollectionString))
                    ids.Add(document.IdString);
            }
            return ids;
        }

        var (index, searcher, _) = await OpenIndexAsync(query, null, options, cancellationToken).ConfigureAwait(false);
        using var opened = searcher;
        if (searcher is IRowSource)
            throw new QueryException($"The index '{index.Name}' is a map/reduce index: its rows are not documents to patch or delete.");
        var compiled = new QueryCompiler(index.Definition, options.Parameters).Compile(query.Where);
        var fanOut = index.Definition.IsFanOut;
        var seen = fanOut ? new HashSet<string>(StringComparer.Ordinal) : null;
        var matches = searcher.Iterate(compiled);
        while (matches.MoveNext())
        {
            cancellationToken.ThrowIfCancellationRequested();
            var key = searcher.GetKey(matches.Current);
            var document = fanOut ? Definitions.IndexDefinition.DocumentKeyOf(key) : key;
            if (seen is null || seen.Add(document))
                ids.Add(document);
        }
        return ids;
    }

    /// <summary>The ids among <paramref name="ids"/> whose documents pass the query's <c>filter</c>, checked up to its <c>filter_limit</c>.</summary>
    private List<string> FilteredIds(RqlQuery query, QueryOptions options, List<string> ids, CancellationToken cancellationToken)
    {
        using var reader = store.OpenReader();
        using var filter = ResultFilter.Create(query, options, cancellationToken);
        var passed = new List<string>();
        foreach (var id in ids)
        {
            if (filter.Exhausted)
                break;
            cancellationToken.ThrowIfCancellationRequested();
            if (reader.TryGet(id, out var document) && filter.Passes(document.Json, document.IdString, reader))
                passed.Add(id);
        }
        return passed;
    }
}
