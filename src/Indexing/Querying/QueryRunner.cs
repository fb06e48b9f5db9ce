using System.Diagnostics;
using System.Text.Json;
using Folio.Indexing.Collectors;
using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Querying.Highlighting;
using Folio.Indexing.Querying.Suggestions;
using Folio.Indexing.Queries;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;
using Folio.Storage.Documents;

namespace Folio.Indexing.Querying;

/// <summary>
/// Runs RQL against a database: a plain <c>from Collection</c> (and <c>where id() = …</c>) reads the
/// collection directly; anything else goes through the named index or the collection's auto index,
/// which is created (or widened) when no existing one has the fields. No query scans every document.
/// </summary>
public sealed partial class QueryRunner(DocumentStore store, IndexStore indexes)
{
    private readonly ParsedQueryCache _parsed = new();

    /// <summary>
    /// Parses and runs a query, returning one page of results. The search stops with a
    /// <see cref="QueryTimeoutException"/> past <see cref="QueryOptions.Timeout"/>, and with an
    /// <see cref="OperationCanceledException"/> when <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    public async Task<QueryResult> RunAsync(string text, QueryOptions options, CancellationToken cancellationToken = default)
    {
        using var budget = new QueryBudget(options.Timeout, cancellationToken);
        try
        {
            var result = await RunWithinAsync(text, options, budget, cancellationToken).ConfigureAwait(false);
            // The answer came before the budget's timer ran, but not before its deadline: the client asked for none that late.
            return budget.RanOut ? throw budget.Exceeded() : result;
        }
        catch (OperationCanceledException) when (budget.RanOut)
        {
            throw budget.Exceeded();
        }
        catch (Scripting.ScriptException e) when (e.Failure == Scripting.ScriptFailure.Canceled && budget.RanOut)
        {
            // A projection stopped by the budget says it was cancelled; the client asked for nothing of the kind.
            throw budget.Exceeded();
        }
    }

    private async Task<QueryResult> RunWithinAsync(string text, QueryOptions options, QueryBudget budget, CancellationToken cancellationToken)
    {
        var started = Stopwatch.GetTimestamp();
        // A stored facet setup is read at every run (it may have changed since the text was parsed).
        var query = CompareExchangeValues.Resolve(FacetSetups.Expand(_parsed.Parse(text), store, options.Parameters), store, options.Parameters);
        var timings = query.IncludeTimings ? new QueryTimings() : null;
        timings?.StartAt(started);
        timings?.ParseDone();
        if (query.Update is not null)
            throw new QueryException("A query with update { … } is a patch by query: send it with PATCH /databases/{db}/queries.");
        if (query.ScriptProjection is not null && NeedsAllMatches(query))
            throw new QueryException("A JavaScript projection (select { … }) cannot be combined with select distinct, order by random() or an alphanumeric order yet.");
        CheckFilter(query);
        var plan = query.GroupBy.Count > 0 ? GroupByPlan.Create(query) : null;
        if (plan is not null)
            query = plan.Query;
        var result = new QueryResult { Timings = timings, Explanations = query.IncludeExplanations ? new(StringComparer.OrdinalIgnoreCase) : null };
        var (skip, take) = Paging(query, options, result);
        if (IsDirect(query, options.Parameters, out var ids))
        {
            // A collection read waits for no index: its budget, which stops its projections too, starts now.
            budget.Start();
            using var direct = ScriptProjector.Create(query, options, budget.Token);
            if (query.Filters)
                AnswerDirectFiltered(query, ids, options, skip, take, result, direct, budget.Token);
            else
                AnswerDirect(query, ids, options, skip, take, result, direct);
            return Finished(result, started);
        }

        var (index, searcher, indexedEtag) = await OpenIndexAsync(query, plan, options, cancellationToken).ConfigureAwait(false);
        using var opened = searcher;
        budget.Start();
        using var projector = ScriptProjector.Create(query, options, budget.Token);
        var guard = new QueryGuard(budget.Token, options.MaxMemoryBytes);
        guard.Start();
        guard.StopAt(budget.Deadline);
        searcher.Guard = guard;
        var compiler = new QueryCompiler(index.Definition, options.Parameters);
        var where = compiler.Compile(query.Where);
        var wholeMatches = NeedsAllMatches(query);
        var distance = query.Facets.Count == 0 && !wholeMatches ? SpatialDistanceOrder.Create(query, compiler) : null;
        var sort = wholeMatches || distance is not null ? [] : compiler.Sort(query.OrderBy);

        using var reader = store.OpenReader();
        result.IndexName = index.Name;
        result.IndexEtag = indexedEtag;
        result.IsStale = index.IsStale(reader, indexedEtag);
        timings?.PlanDone();
        if (query.Facets.Count > 0)
        {
            FacetCounter.Count(query, compiler, searcher, where, result, options.SeedsFacetShapes);
            timings?.QueryDone();
        }
        else if (query.Suggestions.Count > 0)
        {
            Suggester.Suggest(query, compiler, index.Schema, searcher, result);
            timings?.QueryDone();
        }
        else if (wholeMatches)
        {
            AnswerFromAllMatches(query, new MatchSource(reader, searcher, where, compiler, options.Parameters), skip, take, result);
        }
        else
        {
            var highlights = Highlights.Create(query, compiler, index.Definition, index.Schema, where);
            highlights?.Declare(result);
            if (distance is not null)
            {
                AddByDistance(query, distance, searcher, where, skip, take, reader, result, projector);
                timings?.QueryDone();
                return Finished(result, started);
            }
            if (query.Filters)
            {
                AnswerIndexFiltered(query, searcher, where, sort, index.Definition.IsFanOut, options, skip, take, reader, result, projector, budget.Token);
                return Finished(result, started);
            }
            var page = !index.Definition.IsFanOut ? searcher.Search(where, skip, take, sort) : FanOutPage.Search(searcher, where, skip, take, sort, result, options.SkipDuplicateChecking);
            timings?.QueryDone();
            result.TotalResults = page.TotalHits;
            // By index: a foreach over the interface boxes the list's enumerator, once per query.
            var hits = page.Hits;
            var rows = searcher as IRowSource;
            for (var i = 0; i < hits.Count; i++)
            {
                // A page is at most the page size, but a projection may take a while per result.
                guard.Check();
                if (rows is not null)
                {
                    var found = rows.TryGetRow(hits[i].Key, out var row);
                    timings?.LoadDone();
                    if (found)
                        AddResult(query, reader, row, null, result, projector);
                }
                else
                {
                    var found = reader.TryGet(hits[i].Key, out var document);
                    timings?.LoadDone();
                    if (!found)
                        continue;
                    AddResult(query, reader, document.Json, document.IdString, result, projector);
                    highlights?.Add(document.IdString, document.Json, result);
                }
                result.Explanations?.TryAdd(hits[i].Key, [searcher.Explain(where, hits[i].EntryId)]);
                timings?.ProjectionDone();
            }
        }
        return Finished(result, started);
    }

    private static QueryResult Finished(QueryResult result, long started)
    {
        if (result.Timings is { } timings)
        {
            // The total is the stages' sum, so the answer's parts add up to its whole.
            timings.ProjectionDone();
            timings.Total = timings.Parse + timings.Plan + timings.Query + timings.Load + timings.Projection;
            result.DurationInMs = timings.Total;
            return result;
        }
        result.DurationInMs = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        return result;
    }

    /// <summary>
    /// Every result of a query, without paging limits, one document (or projection) at a time: the
    /// snapshot stays open while the caller consumes them, and memory does not grow with the count.
    /// The caller disposes the stream.
    /// </summary>
    public async Task<QueryStream> StreamAsync(string text, QueryOptions options, CancellationToken cancellationToken = default)
    {
        var query = _parsed.Parse(text);
        if (query.Facets.Count > 0 || query.Suggestions.Count > 0)
            throw new QueryException("Facet and suggestion queries cannot be streamed; run them as queries.");
        if (NeedsAllMatches(query))
            throw new QueryException("Queries with select distinct, order by random() or an alphanumeric order cannot be streamed; run them as queries.");
        if (query.ScriptProjection is not null || query.Update is not null)
            throw new QueryException("Queries with JavaScript (select { … }, update { … }) cannot be streamed; run them as queries.");
        if (query.Filters)
            throw new QueryException("Queries with filter cannot be streamed yet; run them as queries (with filter_limit for a large collection).");
        var plan = query.GroupBy.Count > 0 ? GroupByPlan.Create(query) : null;
        if (plan is not null)
            query = plan.Query;
        if (query.Where is null && query.OrderBy.Count == 0 && query.From.Collection is not null)
            return new QueryStream(StreamCollection(query), owned: null);
        var (index, searcher, _) = await OpenIndexAsync(query, plan, options, cancellationToken).ConfigureAwait(false);
        searcher.Guard = new QueryGuard(cancellationToken);
        try
        {
            var compiler = new QueryCompiler(index.Definition, options.Parameters);
            var where = compiler.Compile(query.Where);
            var sort = compiler.Sort(query.OrderBy);
            return new QueryStream(StreamIndex(query, searcher, where, sort, index.Definition.IsFanOut), searcher);
        }
        catch
        {
            searcher.Dispose();
            throw;
        }
    }

    private IEnumerable<byte[]> StreamCollection(RqlQuery query)
    {
        using var reader = store.OpenReader();
        var cursor = CollectionScope.Cursor(reader, query.From.Collection!);
        while (cursor.MoveNext())
            yield return Project(query, cursor.Current.Json, cursor.Current.IdString);
    }

    private IEnumerable<byte[]> StreamIndex(RqlQuery query, IEngineSearcher searcher, Query where, IReadOnlyList<SortField> sort, bool fanOut)
    {
        using var opened = searcher;
        using var reader = store.OpenReader();
        if (sort.Count > 0)
        {
            // A sorted stream needs the order first; ids and keys are small next to the documents.
            var all = searcher.Search(where, 0, int.MaxValue, sort);
            var seenSorted = new HashSet<string>(StringComparer.Ordinal);
            foreach (var hit in all.Hits)
            {
                var document = fanOut ? Definitions.IndexDefinition.DocumentKeyOf(hit.Key) : hit.Key;
                if (fanOut && !seenSorted.Add(document))
                    continue;
                if (ProjectHit(query, searcher, reader, document) is { } projected)
                    yield return projected;
            }
            yield break;
        }
        var matches = searcher.Iterate(where);
        // A fan-out index's entries of one document come one after another only by chance: its documents are remembered.
        var seen = new HashSet<string>(StringComparer.Ordinal);
        while (matches.MoveNext())
        {
            var key = searcher.GetKey(matches.Current);
            var document = fanOut ? Definitions.IndexDefinition.DocumentKeyOf(key) : key;
            if (fanOut && !seen.Add(document))
                continue;
            if (ProjectHit(query, searcher, reader, document) is { } projected)
                yield return projected;
        }
    }

    /// <summary>The projected row (a map/reduce index's) or document a hit names, or null when it is gone.</summary>
    private static byte[]? ProjectHit(RqlQuery query, IEngineSearcher searcher, DocumentReader reader, string key)
    {
        if (searcher is IRowSource rows)
            return rows.TryGetRow(key, out var row) ? Project(query, row, null) : null;
        return reader.TryGet(key, out var document) ? Project(query, document.Json, document.IdString) : null;
    }

    private static (int Skip, int Take) Paging(RqlQuery query, QueryOptions options, QueryResult result)
    {
        // A parameter bound to null means no offset or no limit: the seeds' system's clients send `limit $p0, $p1` with $p0 null.
        var offset = query.Offset is null ? default : ParameterValues.Resolve(query.Offset, options.Parameters);
        var limit = query.Limit is null ? default : ParameterValues.Resolve(query.Limit, options.Parameters);
        var skip = query.Offset is null || offset.Type == FieldValueType.Null ? options.Start ?? 0 : Count(offset, "offset");
        var take = query.Limit is null || limit.Type == FieldValueType.Null ? options.PageSize ?? options.MaxPageSize : Count(limit, "limit");
        if (take > options.MaxPageSize)
        {
            take = options.MaxPageSize;
            result.CappedPageSize = options.MaxPageSize;
        }
        return ((int)Math.Min(skip, int.MaxValue - options.MaxPageSize), (int)take);
    }

    private static long Count(FieldValue value, string what) =>
        value.Type == FieldValueType.Long && value.Long >= 0 ? value.Long : throw new QueryException($"The {what} must be a whole number of zero or more.");

    /// <summary>Answers <c>from Collection</c> without conditions or order, and pure <c>id()</c> lookups, from the documents themselves.</summary>
    /// <summary>
    /// Whether <paramref name="query"/> reads its collection (or documents by id) without an index; <paramref name="ids"/>
    /// are the ids its condition looks up (null: it has none and reads the whole collection).
    /// </summary>
    private static bool IsDirect(RqlQuery query, JsonElement? parameters, out List<string>? ids)
    {
        ids = null;
        var shuffled = query.OrderBy is [{ Type: RqlOrderType.Random }];
        if (query.From.Collection is null || (query.OrderBy.Count > 0 && !shuffled) || query.Facets.Count > 0 || query.Suggestions.Count > 0)
            return false;
        // A bare true asks for the whole collection, as no where does.
        return query.Where is null or RqlTrue || (ids = IdLookups(query.Where, parameters)) is not null;
    }

    /// <summary>Answers a query <see cref="IsDirect"/> found needs no index.</summary>
    private void AnswerDirect(RqlQuery query, List<string>? ids, QueryOptions options, int skip, int take, QueryResult result, ScriptProjector? projector)
    {
        var collection = query.From.Collection!;
        if (query.OrderBy is [{ Type: RqlOrderType.Random }] || query.Distinct)
        {
            AnswerDirectAllMatches(query, collection, ids, options, skip, take, result);
            return;
        }
        result.Timings?.PlanDone();
        if (ids is null)
        {
            using var reader = store.OpenReader();
            result.IndexName = "collection/" + collection;
            result.IndexEtag = reader.LastEtag;
            result.TotalResults = CollectionScope.Count(reader, collection);
            var cursor = CollectionScope.Cursor(reader, collection);
            cursor.Skip(skip);
            while (result.Results.Count < take && cursor.MoveNext())
                AddResult(query, reader, cursor.Current.Json, cursor.Current.IdString, result, projector);
            return;
        }
        using (var reader = store.OpenReader())
        {
            result.IndexName = "document";
            result.IndexEtag = reader.LastEtag;
            var matched = 0;
            foreach (var id in ids)
            {
                if (!reader.TryGet(id, out var document) || !CollectionScope.Contains(collection, document.CollectionString))
                    continue;
                if (matched++ >= skip && result.Results.Count < take)
                    AddResult(query, reader, document.Json, document.IdString, result, projector);
            }
            result.TotalResults = matched;
        }
    }

    private static List<string>? IdLookups(RqlExpression where, JsonElement? parameters)
    {
        switch (where)
        {
            case RqlComparison { Field.IsId: true, Operator: "=" } equal:
                return [ParameterValues.Resolve(equal.Value, parameters).ToString()];
            case RqlIn { Field.IsId: true } @in:
                var ids = new List<string>();
                var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
                foreach (var value in ParameterValues.ResolveAll(@in.Values, parameters))
                {
                    var id = value.ToString();
                    if (seen.Add(id))
                        ids.Add(id);
                }
                return ids;
            case RqlBinary { IsAnd: false } union when IdLookups(union.Left, parameters) is { } left && IdLookups(union.Right, parameters) is { } right:
                left.AddRange(right);
                return left;
            default:
                return null;
        }
    }

    /// <summary>
    /// The index a query runs on, with a searcher open on it. An index can be dropped between being found
    /// and being opened (an auto index retired behind a wider one, a definition replaced, an index reset or
    /// deleted); the query then looks its index up again, as it would have a moment later. Also returns
    /// the etag up to which the searcher's snapshot is indexed, for the answer's staleness.
    /// </summary>
    private async Task<(DocumentIndex Index, IEngineSearcher Searcher, long IndexedEtag)> OpenIndexAsync(RqlQuery query, GroupByPlan? plan, QueryOptions options, CancellationToken cancellationToken)
    {
        const int attempts = 8;
        for (var attempt = 1; ; attempt++)
        {
            var index = await ResolveIndexAsync(query, plan, options, cancellationToken).ConfigureAwait(false);
            if (index.TryOpenSearcher(out var searcher, out var indexedEtag))
                return (index, searcher, indexedEtag);
            if (attempt == attempts)
                throw new ObjectDisposedException(index.Name, $"The index '{index.Name}' was dropped {attempts} times while the query looked for it; try the query again.");
        }
    }

    private async Task<DocumentIndex> ResolveIndexAsync(RqlQuery query, GroupByPlan? plan, QueryOptions options, CancellationToken cancellationToken)
    {
        DocumentIndex index;
        var cutoff = store.LastEtag;
        if (query.From.IndexName is { } name)
        {
            index = indexes.Get(name) ?? throw new IndexNotFoundException(name);
        }
        else
        {
            var (auto, created) = plan is not null
                ? indexes.GetOrCreateAutoMapReduce(plan.Collection, plan.GroupBy, plan.Aggregations)
                : GetOrCreateAutoIndex(query);
            index = auto;
            if (created && !options.WaitForNonStaleResults)
                await index.WaitForEtagAsync(cutoff, options.AutoIndexWait, cancellationToken).ConfigureAwait(false);
        }
        if (options.WaitForNonStaleResults)
            await index.WaitForEtagAsync(cutoff, options.WaitTimeout, cancellationToken).ConfigureAwait(false);
        return index;
    }

    private (DocumentIndex Index, bool Created) GetOrCreateAutoIndex(RqlQuery query)
    {
        var (exact, search) = QueryCompiler.FieldsOf(query);
        return indexes.GetOrCreateAutoIndex(query.From.Collection!, exact, search, QueryCompiler.CaseSensitiveFieldsOf(query), QueryCompiler.SpatialFieldsOf(query));
    }

    /// <summary>A page of <c>order by spatial.distance()</c>, each result with its distance in <c>@metadata.@spatial</c>.</summary>
    private static void AddByDistance(RqlQuery query, SpatialDistanceOrder distance, IEngineSearcher searcher, Query where, int skip, int take, DocumentReader reader, QueryResult result, ScriptProjector? projector)
    {
        var hits = distance.Page(searcher, where, skip, take, out var total);
        result.TotalResults = total;
        foreach (var hit in hits)
        {
            if (reader.TryGet(hit.Key, out var document))
                AddResult(query, reader, document.Json, document.IdString, result, projector, hit);
        }
    }

    private static void AddResult(RqlQuery query, DocumentReader reader, ReadOnlySpan<byte> json, string? id, QueryResult result, ScriptProjector? projector, SpatialHit? spatial = null)
    {
        if (projector is not null)
            result.Results.Add(projector.Project(json, id, reader, result));
        else if (spatial is { } hit)
            result.Results.Add(SpatialMetadata.With(query.Select.Count == 0 ? json : Project(query, json, id), hit));
        else if (query.Select.Count == 0)
            result.Results.Add(json);
        else
            result.Results.Add(Project(query, json, id));
        AddIncludes(query, reader, json, result);
    }

    /// <summary>The documents the paths of <c>include</c> name in <paramref name="json"/>, added to the answer's includes.</summary>
    private static void AddIncludes(RqlQuery query, DocumentReader reader, ReadOnlySpan<byte> json, QueryResult result)
    {
        if (query.Include.Count == 0 && query.CompareExchangeIncludes.Count == 0)
            return;
        using var parsed = JsonDocument.Parse(json.ToArray());
        CompareExchangeValues.AddIncludes(query, reader, parsed.RootElement, result);
        foreach (var path in query.Include)
        {
            foreach (var value in path.Values(parsed.RootElement))
            {
                if (value.ValueKind != JsonValueKind.String || value.GetString() is not { Length: > 0 } included || result.Includes.ContainsKey(included))
                    continue;
                if (reader.TryGet(included, out var document))
                    result.Includes[document.IdString] = document.Json.ToArray();
            }
        }
    }

    /// <summary>
    /// The document (or a map/reduce index's row, which has no <paramref name="id"/>) itself, or the object
    /// of its projected fields (with <c>@metadata.@id</c> when it has an id).
    /// </summary>
    private static byte[] Project(RqlQuery query, ReadOnlySpan<byte> json, string? id)
    {
        if (query.Select.Count == 0)
            return json.ToArray();
        using var parsed = JsonDocument.Parse(json.ToArray());
        using var stream = new MemoryStream();
        var values = new List<JsonElement>();
        using (var writer = new Utf8JsonWriter(stream))
        {
            writer.WriteStartObject();
            foreach (var projection in query.Select)
            {
                writer.WritePropertyName(projection.Alias);
                if (projection.Field.Path is not { } path)
                {
                    writer.WriteStringValue(id);
                    continue;
                }
                values.Clear();
                var isList = path.Select(parsed.RootElement, values);
                if (!isList)
                {
                    if (values.Count == 0)
                        writer.WriteNullValue();
                    else
                        values[0].WriteTo(writer);
                }
                else
                {
                    writer.WriteStartArray();
                    foreach (var value in values)
                        value.WriteTo(writer);
                    writer.WriteEndArray();
                }
            }
            writer.WriteStartObject("@metadata");
            if (id is not null)
                writer.WriteString("@id", id);
            writer.WriteBoolean("@projection", true);
            writer.WriteEndObject();
            writer.WriteEndObject();
        }
        return stream.ToArray();
    }
}
