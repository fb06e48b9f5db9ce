using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using Folio.Indexing.Definitions;
using Folio.Indexing.Engines;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Documents;

/// <summary>
/// An index over a document store, kept up to date in the background (BASE: writes never wait for
/// it). Its own thread reads documents and tombstones by etag in batches, while the previous batch
/// commits; each batch's entries and the etag it reached commit in one transaction, so a crash
/// neither repeats nor skips a document. Queries read it through a searcher
/// (<see cref="TryOpenSearcher(out IEngineSearcher?, out long)"/>) and learn from
/// <see cref="IsStale(DocumentReader, long)"/> whether that searcher had caught up.
/// </summary>
public sealed class DocumentIndex : IDisposable
{
    private const string StateTree = "indexing-state";
    private const int MaxErrors = 500;
    private const int MinBatchSize = 128;
    private const int MaxBatchSize = 32_768;
    private static readonly byte[] ProcessedKey = "processed-etag"u8.ToArray();

    private readonly DocumentStore _store;
    private readonly ILogger _logger;
    private readonly SearchIndex _search;
    private readonly ConcurrentQueue<IndexError> _errors = new();
    private readonly ConcurrentQueue<IndexBatchStats> _batches = new();
    private readonly CancellationTokenSource _stop = new();
    private readonly Thread _thread;
    private TaskCompletionSource _progressed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _processedEtag;
    private long _errorCount;
    private int _batchSize = 1_024;
    private long _lastQueriedTicks = DateTime.UtcNow.Ticks;
    private volatile Exception? _failure;
    private volatile bool _disposed;

    /// <summary>Opens (creating if needed) the index in <paramref name="directory"/> and starts its indexer.</summary>
    public DocumentIndex(IndexDefinition definition, DocumentStore store, string directory, ILogger logger, StorageOptions? storage = null)
    {
        Definition = definition;
        Directory = directory;
        _store = store;
        _logger = logger;
        _search = SearchIndex.Open(storage ?? StorageOptions.ForPath(directory), definition.ToSchema());
        using (var read = _search.Environment.BeginRead())
        {
            var state = read.OpenTree(StateTree);
            if (state is not null && state.TryGet(ProcessedKey, out var processed))
                _processedEtag = BinaryPrimitives.ReadInt64LittleEndian(processed);
        }
        _thread = new Thread(Run) { IsBackground = true, Name = $"Folio indexer {definition.Name}" };
        _thread.Start();
    }

    /// <summary>The definition.</summary>
    public IndexDefinition Definition { get; }

    /// <summary>Where the index's files are.</summary>
    public string Directory { get; }

    /// <summary>The name.</summary>
    public string Name => Definition.Name;

    /// <summary>The etag up to which every change of the index's collections is indexed.</summary>
    public long ProcessedEtag => Volatile.Read(ref _processedEtag);

    /// <summary>When a query last used the index (what idle auto indexes are retired by).</summary>
    public DateTime LastQueried => new(Volatile.Read(ref _lastQueriedTicks), DateTimeKind.Utc);

    /// <summary>The error that stopped the indexer, if one did.</summary>
    public Exception? Failure => _failure;

    /// <summary>Whether a change of the index's collections is not indexed yet, as <paramref name="reader"/>'s snapshot sees it.</summary>
    public bool IsStale(DocumentReader reader) => IsStale(reader, ProcessedEtag);

    /// <summary>
    /// Whether a change of the index's collections after <paramref name="indexedEtag"/> (what a searcher's
    /// snapshot holds, from <see cref="TryOpenSearcher(out IEngineSearcher?, out long)"/>) is in
    /// <paramref name="reader"/>'s snapshot.
    /// </summary>
    public bool IsStale(DocumentReader reader, long indexedEtag)
    {
        if (indexedEtag >= reader.LastEtag)
            return false;
        foreach (var collection in Definition.Collections)
        {
            if (reader.ByCollection(collection, indexedEtag).MoveNext() || reader.Tombstones(indexedEtag, 1, collection).Count > 0)
                return true;
        }
        return false;
    }

    /// <summary>Waits until the index has processed every change up to <paramref name="etag"/>; false on timeout.</summary>
    public async Task<bool> WaitForEtagAsync(long etag, TimeSpan timeout, CancellationToken cancellationToken = default)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        while (ProcessedEtag < etag)
        {
            if (_failure is not null || _disposed)
                return false;
            var remaining = TimeSpan.FromSeconds((double)(deadline - Stopwatch.GetTimestamp()) / Stopwatch.Frequency);
            if (remaining <= TimeSpan.Zero)
                return false;
            var progressed = Volatile.Read(ref _progressed).Task;
            if (ProcessedEtag >= etag)
                break;
            try
            {
                await progressed.WaitAsync(remaining, cancellationToken).ConfigureAwait(false);
            }
            catch (TimeoutException)
            {
                return ProcessedEtag >= etag;
            }
        }
        return true;
    }

    /// <summary>The search engine's schema the definition made (built once, when the index opened).</summary>
    public IndexSchema Schema => _search.Schema;

    /// <summary>A searcher on the index's last committed batch; also marks the index as used.</summary>
    /// <exception cref="ObjectDisposedException">The index was dropped (deleted, reset, replaced or retired) or closed.</exception>
    public IEngineSearcher OpenSearcher()
    {
        Volatile.Write(ref _lastQueriedTicks, DateTime.UtcNow.Ticks);
        return _search.OpenSearcher();
    }

    /// <summary>
    /// A searcher on the index's last committed batch, or false when the index was dropped or closed
    /// since the caller found it (the caller looks its index up again). A searcher it returns stays
    /// readable until disposed, whatever happens to the index meanwhile.
    /// </summary>
    public bool TryOpenSearcher([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out IEngineSearcher? searcher) => TryOpenSearcher(out searcher, out _);

    /// <summary>
    /// <see cref="TryOpenSearcher(out IEngineSearcher?)"/>, also telling up to which etag the searcher's
    /// snapshot has indexed the collections. The etag is read before the snapshot is taken, and the
    /// indexer moves it only after a batch commits, so the snapshot holds at least that much: a query
    /// that compares it with the documents may call itself stale when it just caught up, never fresh
    /// when it is not.
    /// </summary>
    public bool TryOpenSearcher([System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out IEngineSearcher? searcher, out long indexedEtag)
    {
        searcher = null;
        indexedEtag = ProcessedEtag;
        if (_disposed)
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
    public bool IsDisposed => _disposed;

    /// <summary>Completes when the index's files are closed: at <see cref="Dispose"/>, or once the last searcher open then ends.</summary>
    public Task Closed => _search.Environment.Closed;

    /// <summary>The most recent errors (at most 500 are kept) and how many there were in all.</summary>
    public (IReadOnlyList<IndexError> Recent, long Total) Errors => ([.. _errors], Interlocked.Read(ref _errorCount));

    /// <summary>The most recent batches.</summary>
    public IReadOnlyList<IndexBatchStats> RecentBatches => [.. _batches];

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
    public long SizeOnDisk => _search.Environment.GetStats().DataFilePages * StorageLimits.PageSize;

    /// <summary>
    /// Stops the indexer and closes the index. Searchers already open keep reading their snapshot; the
    /// files are released when the last of them ends (<see cref="Closed"/>). Waiters for an etag wake and
    /// are told it was not reached.
    /// </summary>
    public void Dispose()
    {
        if (_disposed)
            return;
        _disposed = true;
        _stop.Cancel();
        _thread.Join();
        _search.Dispose();
        _stop.Dispose();
        Progressed();
    }

    /// <summary>
    /// The indexer's loop, on its own thread because a batch commit waits on a sync. It reads the next
    /// batch while the current one commits, and sizes batches by how long the last one took.
    /// </summary>
    private void Run()
    {
        Task<PreparedBatch>? next = null;
        try
        {
            while (!_stop.IsCancellationRequested)
            {
                var seen = _store.LastEtag;
                if (ProcessedEtag >= seen && next is null)
                {
                    try
                    {
                        _store.WaitForChangeAsync(seen).Wait(TimeSpan.FromSeconds(5), _stop.Token);
                    }
                    catch (OperationCanceledException)
                    {
                        return;
                    }
                    continue;
                }
                var batch = next is not null ? next.GetAwaiter().GetResult() : Prepare(ProcessedEtag, _batchSize);
                next = null;
                if (batch.UpToEtag < _store.LastEtag)
                {
                    var after = batch.UpToEtag;
                    var size = _batchSize;
                    next = Task.Run(() => Prepare(after, size));
                }
                Index(batch);
            }
        }
        catch (Exception e) when (e is not OperationCanceledException)
        {
            _failure = e;
            _logger.LogError(e, "Indexer of {Index} stopped after an error", Name);
            Progressed();
        }
    }

    /// <summary>Reads the documents and tombstones after <paramref name="afterEtag"/>, up to a bound the batch size sets.</summary>
    private PreparedBatch Prepare(long afterEtag, int maxDocuments)
    {
        const long maxBytes = 16L << 20;
        var entries = new List<IndexEntry>();
        var deletes = new List<string>();
        var errors = new List<IndexError>();
        long bytes = 0;
        using var reader = _store.OpenReader();
        var upTo = reader.LastEtag;
        foreach (var collection in Definition.Collections)
        {
            var cursor = reader.ByCollection(collection, afterEtag);
            while (cursor.MoveNext())
            {
                var document = cursor.Current;
                if (document.Etag > upTo)
                    break;
                if (entries.Count + errors.Count >= maxDocuments || bytes >= maxBytes)
                {
                    // Stop short of this document: everything before it is the batch.
                    upTo = Math.Min(upTo, document.Etag - 1);
                    break;
                }
                var key = document.IdString.ToLowerInvariant();
                try
                {
                    entries.Add(DocumentFieldExtractor.Extract(Definition, key, document.Json));
                }
                catch (System.Text.Json.JsonException e)
                {
                    errors.Add(new IndexError(DateTime.UtcNow, document.IdString, e.Message));
                    deletes.Add(key);
                }
                bytes += document.Json.Length;
            }
        }
        // A document past the bound of a later collection may have been taken before the bound dropped.
        if (Definition.Collections.Count > 1)
            entries.RemoveAll(entry => EtagOf(reader, entry.Key) > upTo);
        foreach (var collection in Definition.Collections)
        {
            foreach (var tombstone in reader.Tombstones(afterEtag, int.MaxValue, collection))
            {
                if (tombstone.Etag > upTo)
                    break;
                deletes.Add(tombstone.Id);
            }
        }
        return new PreparedBatch(entries, deletes, errors, upTo, bytes);
    }

    private static long EtagOf(DocumentReader reader, string key) => reader.TryGet(key, out var document) ? document.Etag : long.MaxValue;

    private void Index(PreparedBatch prepared)
    {
        var started = Stopwatch.GetTimestamp();
        var startedAt = DateTime.UtcNow;
        foreach (var error in prepared.Errors)
            RecordError(error);
        if (prepared.Entries.Count == 0 && prepared.Deletes.Count == 0)
        {
            // Nothing of ours changed: remember how far we looked without paying for a commit.
            Advance(prepared.UpToEtag);
            return;
        }

        using (var batch = _search.BeginBatch())
        {
            foreach (var key in prepared.Deletes)
                batch.Delete(key);
            foreach (var entry in prepared.Entries)
            {
                try
                {
                    batch.Add(entry);
                }
                catch (IndexValueException e)
                {
                    RecordError(new IndexError(DateTime.UtcNow, entry.Key, e.Message));
                    batch.Delete(entry.Key);
                }
            }
            BinaryPrimitives.WriteInt64LittleEndian(batch.Transaction.CreateTree(StateTree).Reserve(ProcessedKey, 8), prepared.UpToEtag);
            batch.Commit();
        }
        Advance(prepared.UpToEtag);

        var elapsed = Stopwatch.GetElapsedTime(started);
        var stats = new IndexBatchStats(startedAt, prepared.Entries.Count, prepared.Deletes.Count, elapsed.TotalMilliseconds, prepared.UpToEtag);
        _batches.Enqueue(stats);
        while (_batches.Count > 20)
            _batches.TryDequeue(out _);
        AdaptBatchSize(prepared.Entries.Count, elapsed);
        _logger.LogInformation("Index {Index} indexed {Documents} documents and {Deletes} deletes up to etag {Etag} in {ElapsedMs:F0} ms ({Rate:F0}/s)",
            Name, stats.Documents, stats.Deletes, stats.UpToEtag, stats.DurationMs, stats.Rate);
    }

    /// <summary>
    /// Grows full batches while they take under a second and shrinks them past four. Every commit rewrites
    /// the posting chunks of each term the batch touched and syncs, so small batches cost throughput
    /// (the raw engine indexed a backlog at about half the rate in batches of 512 as in batches of 10,000); the bounds keep a
    /// batch's memory and the time its results wait to become visible in check.
    /// </summary>
    private void AdaptBatchSize(int documents, TimeSpan elapsed)
    {
        if (documents >= _batchSize && elapsed < TimeSpan.FromSeconds(1))
            _batchSize = Math.Min(_batchSize * 2, MaxBatchSize);
        else if (elapsed > TimeSpan.FromSeconds(4))
            _batchSize = Math.Max(_batchSize / 2, MinBatchSize);
    }

    private void Advance(long etag)
    {
        Volatile.Write(ref _processedEtag, Math.Max(ProcessedEtag, etag));
        Progressed();
    }

    private void Progressed() =>
        Interlocked.Exchange(ref _progressed, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();

    private void RecordError(IndexError error)
    {
        Interlocked.Increment(ref _errorCount);
        _errors.Enqueue(error);
        while (_errors.Count > MaxErrors)
            _errors.TryDequeue(out _);
        _logger.LogWarning("Index {Index} could not index {DocumentId}: {Error}", Name, error.DocumentId, error.Message);
    }
}
