using Folio.Storage.Platform;
using Folio.Storage.Transactions;

namespace Folio.Storage;

/// <summary>Where an environment keeps its files and how it paces its background work.</summary>
public sealed record StorageOptions
{
    /// <summary>The environment's directory; null for an environment held in memory.</summary>
    public string? Path { get; init; }

    /// <summary>
    /// The largest a journal file gets. Each new file is sized from the write rate (about one <see cref="FlushInterval"/>
    /// of writing, from 1 MB up to this); a larger transaction, and any whose record is 4 MB or more, gets a file of its
    /// own size, which is applied at once and deleted.
    /// </summary>
    public long JournalFileSize { get; init; } = 64L << 20;

    /// <summary>
    /// Whether journal records are LZ4 compressed (each one only when that saves a disk block). Journals of either kind
    /// recover whatever this is set to.
    /// </summary>
    public bool JournalCompression { get; init; } = true;

    /// <summary>
    /// After this long without a commit, once the data file holds every journaled transaction, the journal files and
    /// their recycled spares are deleted and the next commit starts a small file: an idle environment keeps no journal
    /// bytes on disk. <see cref="TimeSpan.Zero"/> keeps them until close.
    /// </summary>
    public TimeSpan JournalReleaseAfterIdle { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Journaled bytes not yet applied to the data file that make the flusher run without waiting for <see cref="FlushInterval"/>.</summary>
    public long FlushThresholdBytes { get; init; } = 32L << 20;

    /// <summary>How long committed transactions may stay only in the journal before the flusher applies them.</summary>
    public TimeSpan FlushInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Whether a background thread applies journaled transactions to the data file. Turning it off
    /// (tests that want everything to stay in the journal) leaves that to <see cref="StorageEnvironment.FlushToDataFile"/>.
    /// </summary>
    public bool BackgroundFlush { get; init; } = true;

    /// <summary>
    /// Most page buffers (8 KB each) kept for reuse by write transactions; 0 turns reuse off. Buffers
    /// beyond it go to the GC, and the background flusher lets go of those left unused between two of
    /// its rounds (about <see cref="FlushInterval"/>), so memory falls back after a burst of writes.
    /// </summary>
    public int PageBufferPoolPages { get; init; } = 16384;

    /// <summary>Where the page buffer pool lets go of unused buffers and rents before allocating; null for the process's (<see cref="PageBufferPool.Spare"/>).</summary>
    internal PageBufferPool? SparePageBuffers { get; init; }

    /// <summary>
    /// Whether a data file the environment creates leaves the operating system's cache once the environment has opened,
    /// its mapping then reading without read-ahead (as <see cref="StorageEnvironment.ReleaseResidentPages(long)"/> does for a small file). Every
    /// page of a new file is cached, from being written; opening reads its header and state through the mapping, and
    /// the kernel maps every cached neighbour of a page read, up to 64 KB around it, so each environment created (a
    /// tenant's index) kept 64 KB resident for those two pages until its database went quiet. Its first reads are then
    /// disk reads of the pages they touch. A file opened again is left as the system has it.
    /// </summary>
    public bool UncachedWhenCreated { get; init; } = true;

    /// <summary>
    /// Whether trees put values of 4-16 KB into shared value heap runs (<see cref="Trees.HeapRun"/>) rather than an
    /// overflow page each. Set for the new file a compaction writes, where values arrive one after another and pack
    /// densely; not for everyday writes, where a replaced value's run is copied into the transaction to give its bytes
    /// back: random replacements of 6 KB documents over HTTP ran 0.87× as fast with it (values up to 8 KB packed there,
    /// docs/benchmarks.md).
    /// </summary>
    internal bool PackMidsizeValues { get; init; }

    /// <summary>Most write operations the transaction merger runs in one transaction.</summary>
    public int MergerMaxOperations { get; init; } = 4096;

    /// <summary>Most bytes (as operations estimate them) the merger puts in one transaction.</summary>
    public long MergerMaxBytes { get; init; } = 32L << 20;

    /// <summary>Longest time the merger keeps adding operations to one transaction before committing it.</summary>
    public TimeSpan MergerMaxDuration { get; init; } = TimeSpan.FromMilliseconds(200);

    /// <summary>
    /// Names the environment in the merger's metrics (<see cref="Merging.MergerMeter"/>, tag
    /// <see cref="Merging.MergerMeter.DatabaseTag"/>); null records none.
    /// </summary>
    public string? MetricsName { get; init; }

    internal IStorageFileSystem? FileSystem { get; init; }

    /// <summary>An environment in <paramref name="path"/> with default settings.</summary>
    public static StorageOptions ForPath(string path) => new() { Path = path };

    /// <summary>An environment held in memory, gone when disposed.</summary>
    public static StorageOptions InMemory() => new() { JournalFileSize = 4L << 20 };

    internal IStorageFileSystem CreateFileSystem() =>
        FileSystem ?? (Path is null ? new MemoryFileSystem() : new PhysicalFileSystem(Path));
}
