using System.Collections.Concurrent;
using Folio.Storage.Paging;

namespace Folio.Storage.Platform;

/// <summary>An environment directory held in memory, for tests and throw-away environments.</summary>
internal sealed class MemoryFileSystem : IStorageFileSystem
{
    private readonly ConcurrentDictionary<string, MemoryFile> _files = new(StringComparer.Ordinal);
    private int _locked;

    public string Description => "(in memory)";

    public IStorageFile Open(string name) => _files.GetOrAdd(name, static _ => new MemoryFile());

    public bool Exists(string name) => _files.ContainsKey(name);

    public void Delete(string name) => _files.TryRemove(name, out _);

    public void Rename(string from, string to)
    {
        if (!_files.TryRemove(from, out var file))
            throw new FileNotFoundException($"No in-memory file named '{from}'.");
        if (!_files.TryAdd(to, file))
            throw new IOException($"An in-memory file named '{to}' already exists.");
    }

    public void Replace(string from, string to)
    {
        if (!_files.TryRemove(from, out var file))
            throw new FileNotFoundException($"No in-memory file named '{from}'.");
        _files[to] = file;
    }

    public string[] List(string suffix)
    {
        var names = new List<string>();
        foreach (var name in _files.Keys)
        {
            if (name.EndsWith(suffix, StringComparison.Ordinal))
                names.Add(name);
        }
        var result = names.ToArray();
        Array.Sort(result, StringComparer.Ordinal);
        return result;
    }

    public void FlushDirectory()
    {
    }

    public IDisposable AcquireLock()
    {
        if (Interlocked.Exchange(ref _locked, 1) != 0)
            throw new StorageLockedException("The in-memory storage is already open in another environment.");
        return new Releaser(this);
    }

    public Pager OpenPager(string name, int pageSize) => new MemoryImagePager(Open(name), pageSize);

    private sealed class Releaser(MemoryFileSystem owner) : IDisposable
    {
        public void Dispose() => Volatile.Write(ref owner._locked, 0);
    }
}
