using Folio.Storage.Paging;
using Folio.Storage.Platform;

namespace Folio.Storage.Compaction;

/// <summary>
/// The directory a compaction builds its new environment in: the data file lives beside the real one under
/// a prefixed name (same directory, so the swap is one rename), while its journals stay in memory, since a
/// crash before the swap throws the whole new file away and nothing in them would ever be replayed.
/// </summary>
internal sealed class CompactionFileSystem(IStorageFileSystem inner) : IStorageFileSystem
{
    /// <summary>What the data file of a compaction in progress is called in the environment's directory.</summary>
    public const string DataFileName = Prefix + StorageEnvironment.DataFileName;

    private const string Prefix = "compacting.";

    private readonly MemoryFileSystem _journals = new();

    public string Description => inner.Description + " (compaction)";

    /// <summary>
    /// Deletes what a compaction that never reached its swap left (the swap renames the new file away, so any
    /// file under the prefix is unfinished): the next open starts from the old file, whole.
    /// </summary>
    public static void DiscardLeftovers(IStorageFileSystem fileSystem)
    {
        var removed = false;
        foreach (var name in fileSystem.List(StorageEnvironment.DataFileName))
            removed |= Discard(fileSystem, name);
        foreach (var name in fileSystem.List(StorageEnvironment.DataFileName + ".new"))
            removed |= Discard(fileSystem, name);
        if (removed)
            fileSystem.FlushDirectory();
    }

    private static bool Discard(IStorageFileSystem fileSystem, string name)
    {
        if (!name.StartsWith(Prefix, StringComparison.Ordinal))
            return false;
        fileSystem.Delete(name);
        return true;
    }

    public IStorageFile Open(string name) => IsData(name) ? inner.Open(Prefix + name) : _journals.Open(name);

    public bool Exists(string name) => IsData(name) ? inner.Exists(Prefix + name) : _journals.Exists(name);

    public void Delete(string name)
    {
        if (IsData(name))
            inner.Delete(Prefix + name);
        else
            _journals.Delete(name);
    }

    public void Rename(string from, string to)
    {
        if (IsData(from) != IsData(to))
            throw new InvalidOperationException($"A compaction cannot move '{from}' to '{to}' between its data file and its journals.");
        if (IsData(from))
            inner.Rename(Prefix + from, Prefix + to);
        else
            _journals.Rename(from, to);
    }

    public void Replace(string from, string to)
    {
        if (IsData(from) != IsData(to))
            throw new InvalidOperationException($"A compaction cannot move '{from}' to '{to}' between its data file and its journals.");
        if (IsData(from))
            inner.Replace(Prefix + from, Prefix + to);
        else
            _journals.Replace(from, to);
    }

    public string[] List(string suffix) => _journals.List(suffix);

    public void FlushDirectory() => inner.FlushDirectory();

    /// <summary>The environment being compacted holds the directory's lock; this one only keeps itself single.</summary>
    public IDisposable AcquireLock() => _journals.AcquireLock();

    public Pager OpenPager(string name, int pageSize) => inner.OpenPager(Prefix + name, pageSize);

    private static bool IsData(string name) => name.StartsWith(StorageEnvironment.DataFileName, StringComparison.Ordinal);
}
