namespace Folio.Server.Databases;

/// <summary>Settings of loading and unloading databases (the <c>Databases</c> section).</summary>
public sealed class DatabasesOptions
{
    // More would defeat the point of sharing them: the thread count of a server with many databases stays small.
    private const int MaxThreads = 64;

    /// <summary>
    /// How long a database stays loaded with no request, no changes feed or subscription connected and no work
    /// pending (<c>Databases:IdleUnloadAfter</c>, default 15 minutes); then its files, threads and caches are
    /// released until the next request opens it again. <see cref="TimeSpan.Zero"/> never unloads for idleness.
    /// </summary>
    public TimeSpan IdleUnloadAfter { get; set; } = TimeSpan.FromMinutes(15);

    /// <summary>
    /// How long a loaded database goes without a request, and with nothing connected or pending, before the pages of
    /// its data files stop counting against the server's memory (<c>Databases:ReleasePagesAfter</c>, default 30
    /// seconds). They stay in the operating system's file cache, so its next request maps them back without a disk
    /// read; what stays loaded is the rest (caches, indexes' state). <see cref="TimeSpan.Zero"/> keeps them mapped.
    /// </summary>
    public TimeSpan ReleasePagesAfter { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The most databases loaded at once (<c>Databases:MaxLoaded</c>, default 0: no cap). Opening one more unloads
    /// the least recently used databases that have no work pending and nothing connected; when every loaded
    /// database is busy the count goes over the cap until one becomes idle.
    /// </summary>
    public int MaxLoaded { get; set; }

    /// <summary>
    /// Threads running every database's index batches in turns (<c>Databases:IndexingThreads</c>, default 0: twice the
    /// cores, four at least and sixteen at most). They do not grow with databases or indexes; a batch commit waits on a
    /// sync, so a few more threads than cores keep a long batch from holding everyone's freshness back.
    /// </summary>
    public int IndexingThreads { get; set; }

    /// <summary>
    /// Threads running every database's group commits in turns (<c>Databases:CommitThreads</c>, default 0: sized like
    /// <see cref="IndexingThreads"/>): how many databases may be syncing a commit at once.
    /// </summary>
    public int CommitThreads { get; set; }

    /// <summary>
    /// How long a database goes without a write before the server weighs compacting its documents' file
    /// (<c>Databases:CompactWhenQuietFor</c>, default 1 minute; <see cref="TimeSpan.Zero"/> never compacts on its own).
    /// It weighs it again only after writes of at least a twentieth of all the database has had (1,000 at least): an
    /// estimate reads every page. One database is estimated or compacted at a time across the server, and the
    /// compaction is the same online one as <c>POST /admin/databases/{db}/compact</c>: reads go on, writes wait for the swap.
    /// </summary>
    public TimeSpan CompactWhenQuietFor { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>
    /// The share of the documents' file a compaction must be estimated to give back before the server runs one on its
    /// own (<c>Databases:CompactMinShare</c>, default 0.1): free pages, leaves a copy would fill, and bodies it would
    /// recompress with a newer dictionary. A copy costs about what writing the live data once costs, so a tenth of
    /// the file back is worth one, and a database whose writes free space as fast as they add data is copied at most
    /// once per tenth of its size written. Bodies a newer dictionary would compress 2% of the file smaller are worth a
    /// copy on their own: that saving does not come back with churn.
    /// </summary>
    public double CompactMinShare { get; set; } = 0.1;

    /// <summary>
    /// The fewest bytes a compaction must be estimated to give back before the server runs one on its own
    /// (<c>Databases:CompactMinBytes</c>, default 1 MB): below that a tenant's small file is not worth the copy.
    /// </summary>
    public long CompactMinBytes { get; set; } = 1L << 20;

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (IdleUnloadAfter < TimeSpan.Zero)
            errors.Add("Databases:IdleUnloadAfter must not be negative.");
        if (ReleasePagesAfter < TimeSpan.Zero)
            errors.Add("Databases:ReleasePagesAfter must not be negative.");
        if (MaxLoaded < 0)
            errors.Add("Databases:MaxLoaded must not be negative (0 means no cap).");
        if (CompactWhenQuietFor < TimeSpan.Zero)
            errors.Add("Databases:CompactWhenQuietFor must not be negative (0 never compacts on its own).");
        if (CompactMinShare is <= 0 or > 1 || double.IsNaN(CompactMinShare))
            errors.Add("Databases:CompactMinShare must be above 0 and at most 1.");
        if (CompactMinBytes < 0)
            errors.Add("Databases:CompactMinBytes must not be negative.");
        if (IndexingThreads is < 0 or > MaxThreads)
            errors.Add($"Databases:IndexingThreads must be between 0 (sized from the cores) and {MaxThreads}.");
        if (CommitThreads is < 0 or > MaxThreads)
            errors.Add($"Databases:CommitThreads must be between 0 (sized from the cores) and {MaxThreads}.");
        return errors;
    }
}
