using Folio.Storage.Paging;

namespace Folio.Storage.Platform;

/// <summary>The directory of one environment: its data file, journals and lock.</summary>
internal interface IStorageFileSystem
{
    /// <summary>A name for messages (the directory path, or a description of an in-memory store).</summary>
    string Description { get; }

    IStorageFile Open(string name);

    bool Exists(string name);

    void Delete(string name);

    /// <summary>Renames a closed file, replacing nothing.</summary>
    void Rename(string from, string to);

    /// <summary>Renames a closed file over <paramref name="to"/> in one atomic step: a crash leaves one or the other under that name.</summary>
    void Replace(string from, string to);

    /// <summary>Names of files ending in <paramref name="suffix"/>, in ordinal order.</summary>
    string[] List(string suffix);

    /// <summary>Makes created and deleted names durable.</summary>
    void FlushDirectory();

    /// <summary>Takes the exclusive lock that keeps a second process out of the directory.</summary>
    IDisposable AcquireLock();

    /// <summary>Opens the data file as a pager (memory mapped where the file system is physical).</summary>
    Pager OpenPager(string name, int pageSize);
}
