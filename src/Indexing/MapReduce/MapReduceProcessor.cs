using System.Diagnostics;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Engines;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// The work of a map/reduce index: documents map to entries kept in a <see cref="ReduceStore"/>, a batch
/// re-reduces only the groups it touched, and each group's row is indexed in the index's search engine
/// (keyed by the group key) so queries filter, sort, page and facet the rows like any index. The reduce
/// store is the truth: it commits first, the engine second, each with the batch's etag; when they disagree
/// at open (a crash between the two commits), the engine's rows are rebuilt from the store. A searcher and
/// the rows it reads are taken together, between commits, so a query never mixes two batches, except while
/// a backlog is worked through: the engine's rows are then indexed once every <see cref="PublishInterval"/>
/// and at its end, and a query, told the index is stale, may match on older values than the rows it returns.
/// With an output collection, the rows are then written as documents (<see cref="ReduceOutput"/>).
/// </summary>
internal sealed partial class MapReduceProcessor : IIndexBatchProcessor
{
    /// <summary>How long the engine's rows may lag the reduce store while a backlog is being worked through.</summary>
    internal static readonly TimeSpan PublishInterval = TimeSpan.FromSeconds(5);

    private readonly IndexDefinition _definition;
    private readonly ReduceStore _store;
    private readonly StorageOptions _engineOptions;
    private readonly ISearchEngine _engine;
    private readonly Lock _publish = new();

    // Group keys whose rows changed in batches that left the engine's rows as they were: more changes followed.
    private readonly HashSet<string> _unindexed = new(StringComparer.Ordinal);
    private long _lastPublished = Stopwatch.GetTimestamp();
    private IEngineIndex _index;
    private long _lastReduceTicks;

    private MapReduceProcessor(IndexDefinition definition, ReduceStore store, ISearchEngine engine, StorageOptions engineOptions, ReduceOutput? output, Task? outputFreed, DocumentStore? documents)
    {
        _definition = definition;
        Documents = documents;
        _store = store;
        _engine = engine;
        _engineOptions = engineOptions;
        _output = output;
        _outputFreed = outputFreed;
        _index = engine.Open(engineOptions, definition.ToSchema());
    }

    public ReduceDefinition Reduce => _store.Reduce;

    /// <summary>The index's definition.</summary>
    public IndexDefinition Definition => _definition;

    /// <summary>The JavaScript map whose outputs are mapped instead of the documents (<see cref="IndexDefinition.MapScript"/>), or null.</summary>
    public string? MapScript => _definition.MapScript;

    /// <summary>The document store a map script's <c>load</c> reads (and the output collection is written to), when given.</summary>
    public DocumentStore? Documents { get; }

    public IndexSchema Schema => _index.Schema;

    public long SizeOnDisk => _store.SizeOnDisk + _index.SizeOnDisk;

    public IReadOnlyList<StorageEnvironment> Environments => [_store.Environment, .. _index.StorageEnvironments];

    public Task Closed => Task.WhenAll(_store.Closed, _index.Closed);

    /// <summary>How many map entries and groups the index holds, and how long the last batch's reduce took.</summary>
    public MapReduceStats Stats
    {
        get
        {
            var (entries, groups) = _store.ReadCounts();
            return new MapReduceStats(entries, groups, TimeSpan.FromTicks(Interlocked.Read(ref _lastReduceTicks)).TotalMilliseconds);
        }
    }

    /// <summary>
    /// Opens (creating if needed) the map/reduce index of <paramref name="definition"/> in <paramref name="storage"/>,
    /// its rows on <paramref name="engine"/>. A definition with an output collection needs <paramref name="documents"/>,
    /// the store the rows are written to; <paramref name="outputFreed"/> is what must finish before this index writes
    /// there (the removal of the documents of an index that wrote there before).
    /// </summary>
    /// <exception cref="UnsupportedFormatException">The index was written in a format this build does not read.</exception>
    public static MapReduceProcessor Open(IndexDefinition definition, StorageOptions storage, ISearchEngine engine, DocumentStore? documents = null, Task? outputFreed = null)
    {
        var reduce = definition.Reduce ?? throw new ArgumentException($"Index '{definition.Name}' is not a map/reduce index.", nameof(definition));
        ReduceOutput? output = null;
        if (definition.OutputCollection is { } collection)
            output = new ReduceOutput(documents ?? throw new ArgumentNullException(nameof(documents), $"Index '{definition.Name}' writes to {collection}: it needs the document store."), collection);
        var store = new ReduceStore(Under(storage, "reduce"), reduce);
        MapReduceProcessor? processor = null;
        try
        {
            processor = new MapReduceProcessor(definition, store, engine, Under(storage, "rows"), output, outputFreed, documents);
            processor.Reconcile();
            return processor;
        }
        catch
        {
            if (processor is null)
                store.Dispose();
            else
                processor.Dispose();
            throw;
        }
    }

    public long ReadProcessedEtag() => _store.ReadEtag();

    public IIndexBatch CreateBatch() => new MapReduceBatch(this);

    public IEngineSearcher OpenSearcher()
    {
        lock (_publish)
        {
            var searcher = _index.OpenSearcher();
            try
            {
                return new MapReduceSearcher(searcher, _store.OpenRows());
            }
            catch
            {
                searcher.Dispose();
                throw;
            }
        }
    }

    public void Dispose()
    {
        _index.Dispose();
        _store.Dispose();
    }

    /// <summary>
    /// Applies one batch: retract, add, re-reduce the touched groups, then commit the store with <paramref name="etag"/>
    /// and, unless <paramref name="moreFollows"/> lets it wait, the engine's rows of every group changed since they
    /// were last indexed. A backlog touches most groups in every batch; indexing their rows once at its end
    /// (or every <see cref="PublishInterval"/> while it lasts) instead of once a batch is what keeps a build's
    /// cost to what it maps and reduces. Returns whether the rows were indexed (what queries read includes the batch).
    /// </summary>
    internal bool Commit(List<(string Key, List<MapEntry> Entries)> documents, List<string> deletes, long etag, List<IndexError> errors, bool moreFollows)
    {
        var started = Stopwatch.GetTimestamp();
        var rows = new List<(string Key, byte[] Row)>();
        var removed = new List<string>();
        using var update = _store.BeginUpdate(_output is not null, _written);
        foreach (var key in deletes)
            update.Retract(key);
        foreach (var (key, entries) in documents)
        {
            update.Retract(key);
            update.Add(key, entries);
        }
        update.Finish(etag, rows, removed);

        if (moreFollows && Stopwatch.GetElapsedTime(_lastPublished) < PublishInterval)
        {
            foreach (var (key, _) in rows)
                _unindexed.Add(key);
            foreach (var key in removed)
                _unindexed.Add(key);
            Interlocked.Exchange(ref _lastReduceTicks, Stopwatch.GetElapsedTime(started).Ticks);
            update.Commit();
            WriteOutput(rows, removed);
            return false;
        }

        using var batch = _index.BeginBatch();
        foreach (var key in removed)
        {
            _unindexed.Remove(key);
            batch.Delete(key);
        }
        foreach (var (key, row) in rows)
        {
            _unindexed.Remove(key);
            AddRow(batch, key, row, errors);
        }
        IndexUnindexed(batch, key => update.TryGetRow(key, out var row) ? row.ToArray() : null, errors);
        Interlocked.Exchange(ref _lastReduceTicks, Stopwatch.GetElapsedTime(started).Ticks);
        lock (_publish)
        {
            update.Commit();
            batch.Commit(etag);
        }
        _lastPublished = Stopwatch.GetTimestamp();
        WriteOutput(rows, removed);
        return true;
    }

    /// <summary>Indexes the rows of the groups batches changed since the rows were last indexed, with the store's etag.</summary>
    public IReadOnlyList<IndexError> PublishDeferred()
    {
        var errors = new List<IndexError>();
        using var rows = _store.OpenRows();
        using var batch = _index.BeginBatch();
        IndexUnindexed(batch, key => rows.TryGet(key, out var row) ? row.ToArray() : null, errors);
        lock (_publish)
            batch.Commit(_store.ReadEtag());
        _lastPublished = Stopwatch.GetTimestamp();
        return errors;
    }

    /// <summary>Adds to <paramref name="batch"/> the rows of the groups left unindexed (<paramref name="rowOf"/> reads one; null: the group went), and forgets them.</summary>
    private void IndexUnindexed(IEngineBatch batch, Func<string, byte[]?> rowOf, List<IndexError> errors)
    {
        foreach (var key in _unindexed)
        {
            if (rowOf(key) is { } row)
                AddRow(batch, key, row, errors);
            else
                batch.Delete(key);
        }
        _unindexed.Clear();
    }

    private void AddRow(IEngineBatch batch, string key, byte[] row, List<IndexError> errors)
    {
        try
        {
            batch.Add(DocumentFieldExtractor.Extract(_definition, key, row));
        }
        catch (IndexValueException e)
        {
            errors.Add(new IndexError(DateTime.UtcNow, key, e.Message));
            batch.Delete(key);
        }
    }

    /// <summary>Rebuilds the engine's rows from the store when a crash came between the two commits of a batch.</summary>
    private void Reconcile()
    {
        var etag = _store.ReadEtag();
        if (_index.ReadProcessedEtag() == etag)
            return;
        _index.Dispose();
        _index.Closed.GetAwaiter().GetResult();
        if (_engineOptions.Path is { } path && System.IO.Directory.Exists(path))
            System.IO.Directory.Delete(path, recursive: true);
        _index = _engine.Open(_engineOptions, _definition.ToSchema());
        using var batch = _index.BeginBatch();
        var errors = new List<IndexError>();
        _store.ForEachRow((key, row) => AddRow(batch, key, row.ToArray(), errors));
        batch.Commit(etag);
    }

    private static StorageOptions Under(StorageOptions storage, string folder) =>
        storage.Path is null ? storage : storage with { Path = Path.Combine(storage.Path, folder) };
}
