namespace Folio.Storage;

/// <summary>A moment's counts of an environment.</summary>
public sealed record StorageStats
{
    /// <summary>The last committed transaction.</summary>
    public long LastCommittedTransactionId { get; init; }

    /// <summary>The last transaction the flusher applied to the data file.</summary>
    public long LastFlushedTransactionId { get; init; }

    /// <summary>Pages the data file holds (its size divided by the page size).</summary>
    public long DataFilePages { get; init; }

    /// <summary>Pages below the high-water mark: in use or free for reuse.</summary>
    public long AllocatedPages { get; init; }

    /// <summary>Pages below the high-water mark that are free for reuse.</summary>
    public long FreePages { get; init; }

    /// <summary>Journal files not yet retired.</summary>
    public int JournalFiles { get; init; }

    /// <summary>Bytes written to journals since open.</summary>
    public long JournalBytesWritten { get; init; }

    /// <summary>The LZ4 acceleration the journal compresses the next record with (0 when it does not compress).</summary>
    public int JournalCompressionAcceleration { get; init; }

    /// <summary>Journal syncs since open (one per committed transaction).</summary>
    public long JournalSyncs { get; init; }

    /// <summary>Page versions committed but not yet applied to the data file.</summary>
    public int UnflushedPageVersions { get; init; }

    /// <summary>Page buffers kept for reuse by the next write transactions.</summary>
    public int PooledPageBuffers { get; init; }

    /// <summary>Buffers of flushed page versions waiting for the transactions that might still read them to end.</summary>
    public int RetiredPageBuffers { get; init; }

    /// <summary>Read transactions open right now.</summary>
    public int ActiveReaders { get; init; }

    /// <summary>The compaction running now, or null.</summary>
    public Folio.Storage.Compaction.CompactionProgress? Compaction { get; init; }
}
