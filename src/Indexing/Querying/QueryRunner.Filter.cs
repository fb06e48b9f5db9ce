using System.Text.Json;
using Folio.Indexing.Collectors;
using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Queries;
using Folio.Indexing.Querying.Matching;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

/// <summary>
/// <c>filter</c>, the seeds' exploration queries: every document (or map/reduce row) the query retrieves, in its order, is
/// checked against the filter's condition (or declared function) without an index, up to <c>filter_limit</c> of them;
/// those that pass are paged. The whole retrieved set is read, so a filter costs what a scan of it costs.
/// </summary>
public sealed partial class QueryRunner
{
    /// <summary>Answers a filtered query whose candidates <see cref="IsDirect"/> reads without an index.</summary>
    private void AnswerDirectFiltered(RqlQuery query, List<string>? ids, QueryOptions options, int skip, int take, QueryResult result, ScriptProjector? projector, CancellationToken budget)
    {
        var collection = query.From.Collection!;
        using var reader = store.OpenReader();
        using var filter = ResultFilter.Create(query, options, budget);
        var page = new FilteredPage(skip, take);
        result.IndexEtag = reader.LastEtag;
        result.Timings?.PlanDone();
        if (ids is null)
        {
            result.IndexName = "collection/" + collection;
            var cursor = CollectionScope.Cursor(reader, collection);
            while (!filter.Exhausted && cursor.MoveNext())
            {
                budget.ThrowIfCancellationRequested();
                page.Offer(query, reader, cursor.Current.Json, cursor.Current.IdString, filter, result, projector);
            }
        }
        else
        {
            result.IndexName = "document";
            foreach (var id in ids)
            {
                if (filter.Exhausted)
                    break;
                budget.ThrowIfCancellationRequested();
                if (reader.TryGet(id, out var document) && CollectionScope.Contains(collection, document.CollectionString))
                    page.Offer(query, reader, document.Json, document.IdString, filter, result, projector);
            }
        }
        result.TotalResults = page.Passed;
    }

    /// <summary>Answers a filtered query from every hit of its index, in the index's order.</summary>
    private static void AnswerIndexFiltered(RqlQuery query, IEngineSearcher searcher, Query where, IReadOnlyList<SortField> sort, bool fanOut, QueryOptions options, int skip, int take, DocumentReader reader, QueryResult result, ScriptProjector? projector, CancellationToken budget)
    {
        using var filter = ResultFilter.Create(query, options, budget);
        var page = new FilteredPage(skip, take);
        var hits = searcher.Search(where, 0, int.MaxValue, sort).Hits;
        result.Timings?.QueryDone();
        var rows = searcher as IRowSource;
        // A fan-out index's entries of one document are one result.
        var seen = fanOut ? new HashSet<string>(StringComparer.Ordinal) : null;
        for (var i = 0; i < hits.Count && !filter.Exhausted; i++)
        {
            searcher.Guard.Check();
            var key = fanOut ? Definitions.IndexDefinition.DocumentKeyOf(hits[i].Key) : hits[i].Key;
            if (seen is not null && !seen.Add(key))
                continue;
            if (rows is not null)
            {
                if (rows.TryGetRow(key, out var row))
                    page.Offer(query, reader, row, null, filter, result, projector);
            }
            else if (reader.TryGet(key, out var document))
            {
                page.Offer(query, reader, document.Json, document.IdString, filter, result, projector);
            }
        }
        result.TotalResults = page.Passed;
    }

    /// <summary>What a filter can be combined with, checked before any work (a 400).</summary>
    private static void CheckFilter(RqlQuery query)
    {
        if (!query.Filters)
            return;
        if (NeedsAllMatches(query))
            throw new QueryException("filter cannot be combined with select distinct, order by random() or an alphanumeric order yet.");
        foreach (var order in query.OrderBy)
        {
            if (order.Field is null && order.Type != RqlOrderType.Random)
                throw new QueryException("filter keeps the order of what the query retrieved; order by score() or spatial.distance() cannot be combined with it yet.");
        }
        if (query.Highlights.Count > 0 || query.IncludeExplanations)
            throw new QueryException("filter cannot be combined with include highlight() or explanations() yet.");
    }

    /// <summary>
    /// Checks a query's filter and its limit before a set-based operation starts (a 400 then, rather than an operation
    /// that fails once it has read every match).
    /// </summary>
    /// <param name="query">The operation's query.</param>
    /// <param name="options">Its parameters.</param>
    public static void ValidateFilter(RqlQuery query, QueryOptions options)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(options);
        if (!query.Filters)
            return;
        CheckFilter(query);
        using var filter = ResultFilter.Create(query, options, CancellationToken.None);
    }

    /// <summary>The results that passed the filter so far, and the page they fill.</summary>
    private sealed class FilteredPage(int skip, int take)
    {
        public int Passed { get; private set; }

        public void Offer(RqlQuery query, DocumentReader reader, ReadOnlySpan<byte> json, string? id, ResultFilter filter, QueryResult result, ScriptProjector? projector)
        {
            if (!filter.Passes(json, id, reader))
                return;
            if (Passed++ >= skip && result.Results.Count < take)
                AddResult(query, reader, json, id, result, projector);
        }
    }

    /// <summary>A compiled filter: its condition, or its declared function run as a projection that answers true or false.</summary>
    private sealed class ResultFilter : IDisposable
    {
        private readonly MatchNode? _condition;
        private readonly ScriptProjector? _script;
        private readonly long _limit;
        private readonly QueryResult _scratch = new();
        private long _checked;

        private ResultFilter(MatchNode? condition, ScriptProjector? script, long limit)
        {
            _condition = condition;
            _script = script;
            _limit = limit;
        }

        /// <summary>Whether <c>filter_limit</c> documents were checked.</summary>
        public bool Exhausted => _checked >= _limit;

        public static ResultFilter Create(RqlQuery query, QueryOptions options, CancellationToken cancellation)
        {
            var limit = long.MaxValue;
            if (query.FilterLimit is not null)
            {
                var value = ParameterValues.Resolve(query.FilterLimit, options.Parameters);
                if (value.Type != FieldValueType.Long || value.Long < 0)
                    throw new QueryException("The filter_limit must be a whole number of zero or more.");
                limit = value.Long;
            }
            if (query.FilterScript is { } call)
            {
                var truth = new RqlScript("!!(" + call.Text + ")", call.Line, call.Column);
                return new ResultFilter(null, ScriptProjector.Create(query with { ScriptProjection = truth, Loads = [] }, options, cancellation), limit);
            }
            return new ResultFilter(MatchNode.Compile(query.Filter!, options.Parameters), null, limit);
        }

        public bool Passes(ReadOnlySpan<byte> json, string? id, DocumentReader reader)
        {
            _checked++;
            if (_script is not null)
            {
                // The filter's answer is all that is kept: documents its function load()s are not the results' includes.
                _scratch.Includes.Clear();
                return _script.Project(json, id, reader, _scratch) is [(byte)'t', ..];
            }
            using var document = JsonDocument.Parse(json.ToArray());
            return _condition!.Matches(id ?? string.Empty, document.RootElement);
        }

        public void Dispose() => _script?.Dispose();
    }
}
