using System.Diagnostics;

namespace Folio.Server.BulkInsert;

/// <summary>
/// The running counts of one bulk insert, written by its request after each committed batch and read
/// at any time by the stats endpoint and the progress log.
/// </summary>
public sealed class BulkInsertProgress
{
    private static long s_lastId;

    private readonly long _started = Stopwatch.GetTimestamp();
    private long _documents;
    private long _bytes;
    private long _batches;
    private long _lastEtag;

    /// <summary>Starts counting a new bulk insert.</summary>
    /// <param name="database">The database it writes to.</param>
    public BulkInsertProgress(string database)
    {
        Id = Interlocked.Increment(ref s_lastId);
        Database = database;
        StartedAt = DateTime.UtcNow;
    }

    /// <summary>A number unique in this server process, to tell concurrent inserts apart in logs and stats.</summary>
    public long Id { get; }

    /// <summary>The database written to.</summary>
    public string Database { get; }

    /// <summary>When the insert began (UTC).</summary>
    public DateTime StartedAt { get; }

    /// <summary>Documents in committed batches.</summary>
    public long Documents => Volatile.Read(ref _documents);

    /// <summary>Body bytes (after decompression) up to the end of the last committed batch.</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>Committed batches.</summary>
    public long Batches => Volatile.Read(ref _batches);

    /// <summary>Etag of the last document committed, 0 before the first batch.</summary>
    public long LastEtag => Volatile.Read(ref _lastEtag);

    /// <summary>Time since the insert began.</summary>
    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_started);

    /// <summary>Records a committed batch.</summary>
    /// <param name="documents">Documents in the batch.</param>
    /// <param name="bytesThrough">Body bytes read up to the end of the batch's last command.</param>
    /// <param name="lastEtag">Etag of the batch's last document.</param>
    public void BatchCommitted(int documents, long bytesThrough, long lastEtag)
    {
        // One writer (the insert's own request), many readers: plain volatile writes are enough.
        Volatile.Write(ref _documents, _documents + documents);
        Volatile.Write(ref _bytes, bytesThrough);
        Volatile.Write(ref _batches, _batches + 1);
        Volatile.Write(ref _lastEtag, Math.Max(_lastEtag, lastEtag));
    }
}
