using Folio.Indexing.Documents;
using Folio.Storage;

namespace Folio.Server.Databases;

public sealed partial class Database
{
    // The LastUsed of the last release: a database not used since keeps its pages released, so it is not done again.
    private long _pagesReleasedAt = long.MinValue;
    private int _pageReleases;

    /// <summary>How many times <see cref="ReleaseResidentPages"/> released the pages since the database opened.</summary>
    internal int PageReleases => Volatile.Read(ref _pageReleases);

    /// <summary>
    /// Takes the pages of the database's data files (documents and every index) out of the server's resident memory
    /// once it has gone quiet: no lease, listener or pending work, and not used since the last release. A small
    /// database's files are a few dozen pages each, all of them resident once read until the files close, which across
    /// a thousand loaded tenants is most of the server's memory. The pages stay in the operating system's cache, so
    /// the next request maps them back without reading the disk.
    /// </summary>
    /// <returns>True when the pages were released now.</returns>
    internal bool ReleaseResidentPages()
    {
        long lastUsed = LastUsed;
        if (Volatile.Read(ref _pagesReleasedAt) == lastUsed || WorkPending() is not null)
            return false;
        // A lease of its own keeps a concurrent close from disposing the index list under the walk; returning it does
        // not count as use (see WorkPending).
        if (!TryEnter())
            return false;
        try
        {
            Store.Environment.ReleaseResidentPages();
            foreach (DocumentIndex index in Indexes.All)
                Release(index.StorageEnvironments);
            foreach (KeyValuePair<string, DocumentIndex> replacement in Indexes.Replacements)
                Release(replacement.Value.StorageEnvironments);
        }
        finally
        {
            Release();
        }

        Volatile.Write(ref _pagesReleasedAt, lastUsed);
        Interlocked.Increment(ref _pageReleases);
        return true;
    }

    /// <summary>The size up to which a documents file is read without read-ahead after opening: a tenant's few documents.</summary>
    internal const long SmallDataFileBytes = 1L << 20;

    /// <summary>
    /// Releases the pages that opening read: the documents file's header, state, free-space bitmap and the trees that
    /// describe its collections, and the same for every index. A request for a document, the usual reason a database
    /// opens, reads a leaf or two of the documents file and nothing of an index, and the kernel maps every cached
    /// neighbour of each page read (fault-around), so what opening touched would stay resident with the request's pages
    /// until the database goes quiet. A query or index batch maps back what it reads. A documents file of at most
    /// <see cref="SmallDataFileBytes"/> also leaves the system's cache (<see cref="StorageEnvironment.ReleaseResidentPages(long)"/>),
    /// so that request maps the pages it reads and not the 64 KB of cached neighbours around each.
    /// </summary>
    internal void ReleasePagesReadOpening()
    {
        Store.Environment.ReleaseResidentPages(SmallDataFileBytes);
        foreach (DocumentIndex index in Indexes.All)
            Release(index.StorageEnvironments);
    }

    private static void Release(IReadOnlyList<StorageEnvironment> environments)
    {
        foreach (StorageEnvironment environment in environments)
            environment.ReleaseResidentPages();
    }
}
