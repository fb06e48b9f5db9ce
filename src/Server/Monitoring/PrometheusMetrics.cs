using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Folio.Indexing.Documents;
using Folio.Indexing.Runner;
using Folio.Server.Databases;
using Folio.Server.Routing;
using Folio.Storage;
using Folio.Storage.Merging;
using Prometheus;

namespace Folio.Server.Monitoring;

/// <summary>
/// The figures <c>GET /metrics</c> exposes in Prometheus' text format, kept in a registry of the server's own (so two
/// servers in one process, as in tests, do not share series). Requests are recorded as they complete, by route
/// template, method and status; everything else — per database, per index, the runtime's — is read from the
/// databases when Prometheus scrapes, so writing and indexing pay nothing for it.
/// </summary>
public sealed class PrometheusMetrics : IDisposable
{
    private const string Unmatched = "(unmatched)";

    private readonly DatabaseRegistry _databases;
    private readonly ConcurrentDictionary<RequestKey, RequestSeries> _requestSeries = new();
    private readonly Counter _requests;
    private readonly Histogram _durations;
    private readonly Gauge _documents;
    private readonly Counter _writes;
    private readonly Gauge _dataFileBytes;
    private readonly Counter _journalBytes;
    private readonly Counter _mergedTransactions;
    private readonly Gauge _bulkInserts;
    private readonly Gauge _failedDatabases;
    private readonly Gauge _databaseCount;
    private readonly Counter _indexedDocuments;
    private readonly Counter _indexedDeletes;
    private readonly Counter _indexBatches;
    private readonly Counter _indexBatchSeconds;
    private readonly Gauge _indexLag;
    private readonly Gauge _indexEntries;
    private readonly Counter _indexErrors;
    private readonly Gauge _indexFailed;
    private readonly Gauge _indexBytes;
    private readonly Counter _journalSyncs;
    private readonly Histogram _mergerBatchOperations;
    private readonly Histogram _mergerCommitSeconds;
    private readonly Gauge _threadPoolThreads;
    private readonly Gauge _threadPoolQueued;
    private readonly Counter _threadPoolCompleted;
    private readonly MeterListener _storageListener = new();

    /// <summary>Creates the registry and its series.</summary>
    /// <param name="databases">Read at each scrape.</param>
    public PrometheusMetrics(DatabaseRegistry databases)
    {
        _databases = databases;
        Registry = Metrics.NewCustomRegistry();
        DotNetStats.Register(Registry);
        MetricFactory metrics = Metrics.WithCustomRegistry(Registry);
        string[] request = ["route", "method", "status"];
        string[] database = ["database"];
        string[] index = ["database", "index"];
        _requests = metrics.CreateCounter("folio_http_requests_total", "HTTP requests answered, feeds and streams included.", request);
        _durations = metrics.CreateHistogram("folio_http_request_duration_seconds", "How long HTTP questions took (long polls, continuous feeds, WebSockets and bulk inserts left out).",
            new HistogramConfiguration { LabelNames = request, Buckets = Histogram.ExponentialBuckets(0.0001, 2, 18) });
        _documents = metrics.CreateGauge("folio_documents", "Documents in the database.", database);
        _writes = metrics.CreateCounter("folio_document_writes_total", "Document puts and deletes committed (the database's last etag).", database);
        _dataFileBytes = metrics.CreateGauge("folio_data_file_bytes", "Size of the database's data file.", database);
        _journalBytes = metrics.CreateCounter("folio_journal_written_bytes_total", "Journal bytes written since the database opened.", database);
        _mergedTransactions = metrics.CreateCounter("folio_merged_transactions_total", "Write transactions the merger committed since the database opened.", database);
        _bulkInserts = metrics.CreateGauge("folio_bulk_inserts_running", "Bulk inserts streaming into the database now.", database);
        _databaseCount = metrics.CreateGauge("folio_databases", "Databases in the catalog by state: loaded (open) or unloaded (on disk until their next request).", "state");
        _failedDatabases = metrics.CreateGauge("folio_database_failed", "1 when the database refuses writes after a failed write or sync.", database);
        _indexedDocuments = metrics.CreateCounter("folio_index_documents_indexed_total", "Documents the index has indexed since it opened.", index);
        _indexedDeletes = metrics.CreateCounter("folio_index_deletes_total", "Deletes the index has applied since it opened.", index);
        _indexBatches = metrics.CreateCounter("folio_index_batches_total", "Indexing batches committed since the index opened.", index);
        _indexBatchSeconds = metrics.CreateCounter("folio_index_batch_seconds_total", "Time spent committing those batches (divide by the batches for the mean).", index);
        _indexLag = metrics.CreateGauge("folio_index_lag_etags", "How many etags the index is behind its database.", index);
        _indexEntries = metrics.CreateGauge("folio_index_entries", "Entries in the index.", index);
        _indexErrors = metrics.CreateCounter("folio_index_errors_total", "Documents the index could not index.", index);
        _indexFailed = metrics.CreateGauge("folio_index_failed", "1 when the index stopped on an error.", index);
        _indexBytes = metrics.CreateGauge("folio_index_size_bytes", "Size of the index on disk.", index);
        _journalSyncs = metrics.CreateCounter("folio_journal_syncs_total", "Journal syncs (one per committed transaction) since the database opened.", database);
        _mergerBatchOperations = metrics.CreateHistogram("folio_merger_batch_operations", "Write operations the transaction merger put into one transaction.",
            new HistogramConfiguration { LabelNames = database, Buckets = MergerMeter.BatchOperationsBuckets });
        _mergerCommitSeconds = metrics.CreateHistogram("folio_merger_commit_seconds", "How long committing a merged transaction took: its journal record written and synced, its pages published.",
            new HistogramConfiguration { LabelNames = database, Buckets = MergerMeter.CommitSecondsBuckets });
        _threadPoolThreads = metrics.CreateGauge("folio_threadpool_threads", "Thread-pool threads now.");
        _threadPoolQueued = metrics.CreateGauge("folio_threadpool_queued_items", "Work items queued for the thread pool and not started.");
        _threadPoolCompleted = metrics.CreateCounter("folio_threadpool_completed_items_total", "Work items the thread pool has completed.");
        Registry.AddBeforeCollectCallback(ReadDatabases);
        ListenToStorage();
    }

    /// <summary>The registry <c>/metrics</c> exports.</summary>
    public CollectorRegistry Registry { get; }

    /// <summary>Records one answered request.</summary>
    /// <param name="route">The matched route, or null when none matched.</param>
    /// <param name="method">The request method.</param>
    /// <param name="status">The final status.</param>
    /// <param name="elapsedSeconds">How long it took.</param>
    /// <param name="question">False for a feed or stream (<see cref="LongRunningRequest"/>), whose duration is not latency.</param>
    public void Record(RouteBucket? route, string method, int status, double elapsedSeconds, bool question)
    {
        // The label children are looked up once per route, method and status; after that a request costs a dictionary hit.
        var key = new RequestKey(route, method, status);
        if (!_requestSeries.TryGetValue(key, out RequestSeries series))
            series = _requestSeries.GetOrAdd(key, Create);
        series.Count.Inc();
        if (question)
            series.Duration.Observe(elapsedSeconds);
    }

    /// <summary>Stops listening to the storage engine's metrics.</summary>
    public void Dispose() => _storageListener.Dispose();

    /// <summary>
    /// The merger reports each transaction through .NET metrics (<see cref="MergerMeter"/>); they become Prometheus
    /// histograms here, per database, observed as they happen since a histogram cannot be read at scrape time.
    /// </summary>
    private void ListenToStorage()
    {
        _storageListener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == MergerMeter.Name)
                listener.EnableMeasurementEvents(instrument, instrument.Name == _mergerBatchOperations.Name ? _mergerBatchOperations : _mergerCommitSeconds);
        };
        _storageListener.SetMeasurementEventCallback<int>(static (_, value, tags, state) => Observe((Histogram)state!, value, tags));
        _storageListener.SetMeasurementEventCallback<double>(static (_, value, tags, state) => Observe((Histogram)state!, value, tags));
        _storageListener.Start();
    }

    private static void Observe(Histogram histogram, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        foreach (KeyValuePair<string, object?> tag in tags)
        {
            if (tag.Key == MergerMeter.DatabaseTag && tag.Value is string database)
            {
                histogram.WithLabels(database).Observe(value);
                return;
            }
        }
    }

    private RequestSeries Create(RequestKey key)
    {
        string[] labels = [key.Route?.Template ?? Unmatched, key.Method, key.Status.ToString(System.Globalization.CultureInfo.InvariantCulture)];
        return new RequestSeries(_requests.WithLabels(labels), _durations.WithLabels(labels));
    }

    private void ReadDatabases()
    {
        var seenDatabases = new HashSet<string>(StringComparer.Ordinal);
        var seenIndexes = new HashSet<(string, string)>();
        int loaded = _databases.LoadedCount;
        _databaseCount.WithLabels("loaded").Set(loaded);
        _databaseCount.WithLabels("unloaded").Set(Math.Max(0, _databases.Count - loaded));
        foreach (DatabaseEntry entry in _databases.List())
        {
            // A scrape reads the loaded databases only: opening every database to count it would defeat unloading.
            if (entry.Loaded is not { } database || !database.TryEnter())
                continue;
            try
            {
                ReadDatabase(database, seenIndexes);
                seenDatabases.Add(database.Name);
            }
            catch (ObjectDisposedException)
            {
                // Closed while being read (deleted): its series go with the others of deleted databases below.
            }
            finally
            {
                database.Exit();
            }
        }

        // A deleted database or index keeps no series: a scrape shows what exists.
        foreach (Collector<Gauge.Child> perDatabase in (Collector<Gauge.Child>[])[_documents, _dataFileBytes, _bulkInserts, _failedDatabases])
            RemoveMissing(perDatabase, labels => seenDatabases.Contains(labels[0]));
        foreach (Collector<Counter.Child> perDatabase in (Collector<Counter.Child>[])[_writes, _journalBytes, _journalSyncs, _mergedTransactions])
            RemoveMissing(perDatabase, labels => seenDatabases.Contains(labels[0]));
        foreach (Collector<Histogram.Child> perDatabase in (Collector<Histogram.Child>[])[_mergerBatchOperations, _mergerCommitSeconds])
            RemoveMissing(perDatabase, labels => seenDatabases.Contains(labels[0]));

        _threadPoolThreads.Set(ThreadPool.ThreadCount);
        _threadPoolQueued.Set(ThreadPool.PendingWorkItemCount);
        _threadPoolCompleted.IncTo(ThreadPool.CompletedWorkItemCount);
        foreach (Collector<Gauge.Child> perIndex in (Collector<Gauge.Child>[])[_indexLag, _indexEntries, _indexFailed, _indexBytes])
            RemoveMissing(perIndex, labels => seenIndexes.Contains((labels[0], labels[1])));
        foreach (Collector<Counter.Child> perIndex in (Collector<Counter.Child>[])[_indexedDocuments, _indexedDeletes, _indexBatches, _indexBatchSeconds, _indexErrors])
            RemoveMissing(perIndex, labels => seenIndexes.Contains((labels[0], labels[1])));
    }

    private void ReadDatabase(Database database, HashSet<(string, string)> seenIndexes)
    {
        string name = database.Name;
        StorageEnvironment environment = database.Store.Environment;
        StorageStats storage = environment.GetStats();
        long lastEtag = database.Store.LastEtag;
        using (Storage.Documents.DocumentReader reader = database.Store.OpenReader())
            _documents.WithLabels(name).Set(reader.CountOfDocuments);
        _writes.WithLabels(name).IncTo(lastEtag);
        _dataFileBytes.WithLabels(name).Set(storage.DataFilePages * StorageLimits.PageSize);
        _journalBytes.WithLabels(name).IncTo(storage.JournalBytesWritten);
        _journalSyncs.WithLabels(name).IncTo(storage.JournalSyncs);
        _mergedTransactions.WithLabels(name).IncTo(environment.Merger.MergedTransactions);
        _bulkInserts.WithLabels(name).Set(database.BulkInserts.Count);
        _failedDatabases.WithLabels(name).Set(environment.Failure is null ? 0 : 1);

        foreach (DocumentIndex index in database.Indexes.All)
        {
            IndexTotals totals = index.Totals;
            _indexedDocuments.WithLabels(name, index.Name).IncTo(totals.Documents);
            _indexedDeletes.WithLabels(name, index.Name).IncTo(totals.Deletes);
            _indexBatches.WithLabels(name, index.Name).IncTo(totals.Batches);
            _indexBatchSeconds.WithLabels(name, index.Name).IncTo(totals.BatchSeconds);
            _indexLag.WithLabels(name, index.Name).Set(Math.Max(0, lastEtag - index.ProcessedEtag));
            _indexEntries.WithLabels(name, index.Name).Set(index.EntryCount);
            _indexErrors.WithLabels(name, index.Name).IncTo(index.Errors.Total);
            _indexFailed.WithLabels(name, index.Name).Set(index.Failure is null ? 0 : 1);
            _indexBytes.WithLabels(name, index.Name).Set(index.SizeOnDisk);
            seenIndexes.Add((name, index.Name));
        }
    }

    private static void RemoveMissing<TChild>(Collector<TChild> collector, Func<string[], bool> exists)
        where TChild : ChildBase
    {
        foreach (string[] labels in collector.GetAllLabelValues().ToList())
        {
            if (!exists(labels))
                collector.RemoveLabelled(labels);
        }
    }

    private readonly record struct RequestKey(RouteBucket? Route, string Method, int Status);

    private readonly record struct RequestSeries(Counter.Child Count, Histogram.Child Duration);
}
