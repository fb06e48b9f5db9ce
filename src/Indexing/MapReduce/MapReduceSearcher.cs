using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// A map/reduce index's searcher: the search engine's searcher over the indexed rows, and the rows
/// themselves from the snapshot of the reduce store taken with it, so a row read for a hit is the row the
/// hit was matched on.
/// </summary>
internal sealed class MapReduceSearcher(IEngineSearcher engine, ReduceRows rows) : IEngineSearcher, IRowSource
{
    public long EntryCount => engine.EntryCount;

    public QueryGuard Guard
    {
        get => engine.Guard;
        set => engine.Guard = value;
    }

    public bool TryGetRow(string key, out ReadOnlySpan<byte> row) => rows.TryGet(key, out row);

    public long Count(Query query) => engine.Count(query);

    public TopDocs Search(Query query, int skip, int take, IReadOnlyList<SortField>? sort = null) => engine.Search(query, skip, take, sort);

    public DocIdIterator Iterate(Query query) => engine.Iterate(query);

    public string GetKey(long entryId) => engine.GetKey(entryId);

    public List<FieldValue>? GetValues(string field, long entryId) => engine.GetValues(field, entryId);

    public IDocValues OpenDocValues(string field) => engine.OpenDocValues(field);

    public ITopDocsCollector CreateTopDocsCollector(int skip, int take, IReadOnlyList<SortField>? sort = null) => engine.CreateTopDocsCollector(skip, take, sort);

    public void Collect(Query query, ICollector collector) => engine.Collect(query, collector);

    public void WalkTerms(string field, ITermWalker walker) => engine.WalkTerms(field, walker);

    public string Explain(Query query, long entryId) => engine.Explain(query, entryId);

    public void Dispose()
    {
        engine.Dispose();
        rows.Dispose();
    }
}
