namespace Folio.Storage.Paging;

/// <summary>
/// The data file as pages. Reads hand out spans that stay valid until the environment is disposed,
/// even across growth: a grown file gets a new mapping and the old one lives on for its readers.
/// </summary>
internal abstract class Pager : IDisposable
{
    protected Pager(int pageSize) => PageSize = pageSize;

    public int PageSize { get; }

    /// <summary>The number of pages the file holds now.</summary>
    public abstract long NumberOfPages { get; }

    public abstract ReadOnlySpan<byte> Read(long pageNumber, int pageCount);

    public abstract void Write(long pageNumber, ReadOnlySpan<byte> data);

    /// <summary>Grows the file (never shrinks it) so it holds at least <paramref name="numberOfPages"/>.</summary>
    public abstract void EnsureCapacity(long numberOfPages);

    /// <summary>
    /// Gives the disk blocks of the file from <paramref name="fromPage"/> to its end back, keeping its length, because
    /// growth runs ahead of use and nothing lies there yet; the next growth over them takes blocks again first.
    /// </summary>
    public virtual void ReleaseTail(long fromPage)
    {
    }

    /// <summary>
    /// Gives the process's resident copies of the file's pages back to the operating system without changing what any
    /// read returns: for a file nobody has read for a while, whose pages would otherwise count against the process
    /// until it closes. Spans handed out stay valid; reading them again brings the pages back.
    /// </summary>
    public virtual void ReleaseResidentPages()
    {
    }

    /// <summary>
    /// Like <see cref="ReleaseResidentPages"/>, and also drops the file's pages from the operating system's cache and
    /// turns off read-ahead for the mapping made so far, so each later read maps only the pages it touches, each a
    /// disk read the first time. For small files whose reads are a page or two (a tenant's database opened for one
    /// request); a larger file loses its read-ahead for sequential reads of what is mapped now.
    /// </summary>
    public virtual void ReleaseResidentAndCachedPages()
    {
    }

    /// <summary>Makes every write so far durable.</summary>
    public abstract void Sync();

    /// <summary>
    /// Pages the file is cut back to when it closes (-1: kept as it is). Set by a clean close that flushed
    /// every commit: growth runs ahead of use, and what lies beyond the high-water mark holds nothing.
    /// </summary>
    public long TrimOnDisposeTo { get; set; } = -1;

    public abstract void Dispose();

    protected static long NextSize(long currentBytes, long requiredBytes)
    {
        const long OneGigabyte = 1L << 30;
        var grown = Math.Max(256 * 1024, currentBytes + Math.Min(Math.Max(currentBytes, 1), OneGigabyte));
        return Math.Max(grown, requiredBytes);
    }

    protected CorruptionException OutOfRange(long pageNumber, int pageCount) =>
        new($"Page {pageNumber} (+{pageCount - 1}) lies beyond the end of the data file ({NumberOfPages} pages).");
}
