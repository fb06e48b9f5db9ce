namespace Folio.Indexing.Engines;

/// <summary>A query allocated past its memory limit and was stopped; it wrote nothing.</summary>
public sealed class QueryMemoryLimitException(long limitBytes, long allocatedBytes)
    : Exception($"The query allocated {allocatedBytes / (1024 * 1024):N0} MB, past its memory limit of {limitBytes / (1024 * 1024):N0} MB, and was stopped. Narrow it (fewer matches to sort, group or facet, a smaller page), or raise the server's Queries:MaxMemory.")
{
    /// <summary>The limit it passed, in bytes.</summary>
    public long LimitBytes { get; } = limitBytes;

    /// <summary>What it had allocated when stopped, in bytes.</summary>
    public long AllocatedBytes { get; } = allocatedBytes;
}
