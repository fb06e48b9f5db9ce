using Folio.Storage.Paging;

namespace Folio.Storage.Platform;

/// <summary>An environment directory on disk.</summary>
internal sealed class PhysicalFileSystem : IStorageFileSystem
{
    private const string LockFileName = "folio.lock";
    private readonly string _directory;

    public PhysicalFileSystem(string directory)
    {
        _directory = System.IO.Path.GetFullPath(directory);
        Directory.CreateDirectory(_directory);
    }

    public string Description => _directory;

    public IStorageFile Open(string name) => new PhysicalFile(PathOf(name));

    public bool Exists(string name) => File.Exists(PathOf(name));

    public void Delete(string name) => File.Delete(PathOf(name));

    public void Rename(string from, string to) => File.Move(PathOf(from), PathOf(to), overwrite: false);

    public void Replace(string from, string to) => File.Move(PathOf(from), PathOf(to), overwrite: true);

    public string[] List(string suffix)
    {
        var files = Directory.GetFiles(_directory, "*" + suffix);
        for (var i = 0; i < files.Length; i++)
            files[i] = System.IO.Path.GetFileName(files[i]);
        Array.Sort(files, StringComparer.Ordinal);
        return files;
    }

    public void FlushDirectory() => Pal.FlushDirectory(_directory);

    public IDisposable AcquireLock()
    {
        var path = PathOf(LockFileName);
        try
        {
            // FileShare.None takes an exclusive advisory lock (flock) on Unix, which dies with the process.
            return new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (IOException e)
        {
            throw new StorageLockedException($"The storage directory '{_directory}' is in use by another environment or process.", e);
        }
    }

    public Pager OpenPager(string name, int pageSize) => new MappedPager(new PhysicalFile(PathOf(name)), pageSize);

    private string PathOf(string name) => System.IO.Path.Combine(_directory, name);
}
