using System.Diagnostics.CodeAnalysis;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.MapReduce;
using Folio.Indexing.Runner;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Scheduling;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Documents;

/// <summary>
/// An index over a document store, kept up to date in the background (BASE: writes never wait for it) by an
/// <see cref="IndexRunner"/> that hands batches of changes to the index's <see cref="IIndexBatchProcessor"/>;
/// each batch's entries and the etag it reached commit in one transaction, so a crash neither repeats nor
/// skips a document. Queries read it through a searcher (<see cref="TryOpenSearcher(out IEngineSearcher?, out long)"/>)
/// and learn from <see cref="IsStale(DocumentReader, long)"/> whether that searcher had caught up.
/// </summary>
public sealed class DocumentIndex : IDisposable
{
    private readonly IIndexBatchProcessor _processor;
    private readonly IndexRunner _runner;
    private long _lastQueriedTicks = DateTime.UtcNow.Ticks;
    private IndexSettings _settings = IndexSettings.Default;
    private bool _paused;
    private bool _databasePaused;

    /// <summary>
    /// Opens (creating if needed) the map or map/reduce index of <paramref name="definition"/> in <paramref name="directory"/>
    /// and starts its runner. A map/reduce index with an output collection writes there only once
    /// <paramref name="outputFreed"/> (the removal of an earlier index's documents there) is over. With
    /// <paramref name="startPaused"/> its runner indexes nothing until <see cref="ApplyRunState"/> lets it. Its batches
    /// share <paramref name="group"/>'s turns (its database's) when given.
    /// </summary>
    public DocumentIndex(IndexDefinition definition, DocumentStore store, string directory, ILogger logger, StorageOptions? storage = null, Task? outputFreed = null,
        bool startPaused = false, WorkGroup? group = null)
        : this(definition, store, directory, OpenProcessor(definition, storage ?? StorageOptions.ForPath(directory), store, outputFreed), logger, startPaused, group)
    {
    }

    /// <summary>
    /// An index whose work <paramref name="processor"/> does (the index owns it from here on), kept up to date
    /// with the changes of the definition's collections (from the start only once <paramref name="startPaused"/> is lifted),
    /// its batches sharing <paramref name="group"/>'s turns when given.
    /// </summary>
    public DocumentIndex(IndexDefinition definition, DocumentStore store, string directory, IIndexBatchProcessor processor, ILogger logger, bool startPaused = false,
        WorkGroup? group = null)
    {
        Definition = definition;
        Directory = directory;
        _processor = processor;
        try
        {
            _runner = new IndexRunner(definition.Name, definition.Collections, store, processor, logger, startPaused, group: group);
        }
        catch
        {
            processor.Dispose();
            throw;
        }
    }

    /// <summary>What a map/reduce index holds (null for a map index).</summary>
    public MapReduceStats? MapReduce => (_processor as MapReduceProcessor)?.Stats;

    /// <summary>The definition.</summary>
    public IndexDefinition Definition { get; }

    /// <summary>Where the index's files are.</summary>
    public string Directory { get; }

    /// <summary>The name.</summary>
    public string Name => Definition.Name;

    /// <summary>The search engine that keeps the index (<see cref="SearchEngines"/>).</summary>
    public string SearchEngine => Definition.SearchEngine ?? SearchEngines.Default;

    /// <summary>The etag up to which every change of the index's collections is indexed.</summary>
    public long ProcessedEtag => _runner.ProcessedEtag;

    /// <summary>When a query last used the index (what idle auto indexes are retired by).</summary>
    public DateTime LastQueried => new(Volatile.Read(ref _lastQueriedTicks), DateTimeKind.Utc);

    /// <summary>The error that stopped the indexer, if one did.</summary>
    public Exception? Failure => _runner.Failure;

    /// <summary>The index's lock mode, priority and whether it is disabled (set through its <see cref="IndexStore"/>, which keeps them).</summary>
    public IndexSettings Settings => Volatile.Read(ref _settings);

    /// <summary>Whether the indexer works, and if not why.</summary>
    public IndexRunStatus Status
    {
        get
        {
            if (Settings.Disabled)
                return IndexRunStatus.Disabled;
            if (Failure is not null)
                return IndexRunStatus.Error;
            lock (_runner)
                return _paused || _databasePaused ? IndexRunStatus.Paused : IndexRunStatus.Running;
        }
    }

    /// <summary>
    /// Sets what decides whether the indexer works: the index's settings, whether the index alone is paused, and whether
    /// its database's indexing is. The indexer runs when none holds it off.
    /// </summary>
    internal void ApplyRunState(IndexSettings settings, bool paused, bool databasePaused)
    {
        lock (_runner)
        {
            Volatile.Write(ref _settings, settings);
            _paused = paused;
            _databasePaused = databasePaused;
            _runner.Priority = settings.Priority switch
            {
                IndexPriority.Low => WorkPriority.Low,
                IndexPriority.High => WorkPriority.High,
                _ => WorkPriority.Normal,
            };
            _runner.Paused = settings.Disabled || paused || databasePaused;
        }
    }

    /// <summary>Whether the index alone is paused (not its database's indexing).</summary>
    internal bool IsPaused
    {
        get
        {
            lock (_runner)
                return _paused;
        }
    }

    /// <summary>Whether a change of the index's collections is not indexed yet, as <paramref name="reader"/>'s snapshot sees it.</summary>
    public bool IsStale(DocumentReader reader) => IsStale(reader, ProcessedEtag);

    /// <summary>
    /// Whether a change of the index's collections after <paramref name="indexedEtag"/> (what a searcher's
    /// snapshot holds, from <see cref="TryOpenSearcher(out IEngineSearcher?, out long)"/>) is in
    /// <paramref name="reader"/>'s snapshot.
    /// </summary>
    public bool IsStale(DocumentReader reader, long indexedEtag) => _runner.IsStale(reader, indexedEtag);

    /// <summary>Waits until the index has processed every change up to <paramref name="etag"/>; false on timeout.</summary>
    public Task<bool> WaitForEtagAsync(long etag, TimeSpan timeout, CancellationToken cancellationToken = default) =>
        _runner.WaitForEtagAsync(etag, timeout, cancellationToken);

    /// <summary>The search engine's schema the definition made (built once, when the index opened).</summary>
    public IndexSchema Schema => _processor.Schema;

    /// <summary>A searcher on the index's last committed batch; also marks the index as used.</summary>
    /// <exception cref="ObjectDisposedException">The index was dropped (deleted, reset, replaced or retired) or closed.</exception>
    public IEngineSearcher OpenSearcher()
    {
        Volatile.Write(ref _lastQueriedTicks, DateTime.UtcNow.Ticks);
        return _processor.OpenSearcher();
    }

    /// <summary>
    /// A searcher on the index's last committed batch, or false when the index was dropped or closed
    /// since the caller found it (the caller looks its index up again). A searcher it returns stays
    /// readable until disposed, whatever happens to the index meanwhile.
    /// </summary>
    public bool TryOpenSearcher([NotNullWhen(true)] out IEngineSearcher? searcher) => TryOpenSearcher(out searcher, out _);

    /// <summary>
    /// <see cref="TryOpenSearcher(out IEngineSearcher?)"/>, also telling up to which etag the searcher's
    /// snapshot has indexed the collections. The etag is read before the snapshot is taken, and the
    /// runner moves it only after a batch commits, so the snapshot holds at least that much: a query
    /// that compares it with the documents may call itself stale when it just caught up, never fresh
    /// when it is not.
    /// </summary>
    public bool TryOpenSearcher([NotNullWhen(true)] out IEngineSearcher? searcher, out long indexedEtag)
    {
        searcher = null;
        indexedEtag = ProcessedEtag;
        if (_runner.IsDisposed)
            return false;
        try
        {
            searcher = OpenSearcher();
            return true;
        }
        catch (ObjectDisposedException)
        {
            return false;
        }
    }

    /// <summary>Whether the index was dropped or closed; a query holding it looks its index up again.</summary>
    public bool IsDisposed => _runner.IsDisposed;

    /// <summary>Completes when the index's files are closed: at <see cref="Dispose"/>, or once the last searcher open then ends.</summary>
    public Task Closed => _processor.Closed;

    /// <summary>The most recent errors (at most 500 are kept) and how many there were in all.</summary>
    public (IReadOnlyList<IndexError> Recent, long Total) Errors => _runner.Errors;

    /// <summary>Forgets the errors recorded so far (an administrator has seen to them).</summary>
    public void ClearErrors() => _runner.ClearErrors();

    /// <summary>The most recent batches.</summary>
    public IReadOnlyList<IndexBatchStats> RecentBatches => _runner.RecentBatches;

    /// <summary>What the index has done since it was opened (see <see cref="IndexRunner.Totals"/>).</summary>
    public IndexTotals Totals => _runner.Totals;

    /// <summary>How many entries the index holds (0 once it was dropped).</summary>
    public long EntryCount
    {
        get
        {
            if (!TryOpenSearcher(out var searcher))
                return 0;
            using (searcher)
                return searcher.EntryCount;
        }
    }

    /// <summary>The size of the index's data file.</summary>
    public long SizeOnDisk => _processor.SizeOnDisk;

    /// <summary>The storage environments the index keeps its data in (none on the Lucene engine, whose segment files Lucene merges).</summary>
    public IReadOnlyList<StorageEnvironment> StorageEnvironments => _processor.Environments;

    /// <summary>
    /// Stops the indexer and closes the index. Searchers already open keep reading their snapshot; the
    /// files are released when the last of them ends (<see cref="Closed"/>). Waiters for an etag wake and
    /// are told it was not reached.
    /// </summary>
    public void Dispose() => _runner.Dispose();

    private static IIndexBatchProcessor OpenProcessor(IndexDefinition definition, StorageOptions storage, DocumentStore store, Task? outputFreed) => definition.Reduce is null
        ? MapIndexProcessor.Open(definition, storage, EngineOf(definition), store)
        : MapReduceProcessor.Open(definition, storage, EngineOf(definition), store, outputFreed);

    /// <summary>The engine a definition names; one that names none was written before indexes chose engines, by Folio's.</summary>
    private static ISearchEngine EngineOf(IndexDefinition definition) => SearchEngines.Get(definition.SearchEngine ?? SearchEngines.Default);
}
