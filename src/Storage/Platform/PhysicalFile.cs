using Microsoft.Win32.SafeHandles;

namespace Folio.Storage.Platform;

/// <summary>A file on disk written with positional writes and made durable with fdatasync.</summary>
internal sealed class PhysicalFile : IStorageFile
{
    private readonly SafeFileHandle _handle;

    public PhysicalFile(string path)
    {
        _handle = File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite);
        Path = path;
    }

    public string Path { get; }

    internal SafeFileHandle Handle => _handle;

    public long Length => RandomAccess.GetLength(_handle);

    /// <summary>Shrinks, or grows with real blocks (see <see cref="Pal.Allocate"/>); a growth that fails leaves the length as it was.</summary>
    public void SetLength(long length)
    {
        var current = RandomAccess.GetLength(_handle);
        if (length <= current)
        {
            RandomAccess.SetLength(_handle, length);
            return;
        }
        try
        {
            Pal.Allocate(_handle, current, length - current);
        }
        catch (IOException)
        {
            RandomAccess.SetLength(_handle, current);
            throw;
        }
    }

    /// <summary>
    /// Grows the file's length without giving it blocks (a hole reads as zeros); <see cref="Reserve"/> takes them before
    /// anything is written there. Never shrinks.
    /// </summary>
    public void Extend(long length)
    {
        if (length > RandomAccess.GetLength(_handle))
            RandomAccess.SetLength(_handle, length);
    }

    /// <summary>Gives real blocks to a range inside the file's length (after <see cref="ReleaseRange"/> made it a hole).</summary>
    /// <exception cref="IOException">The blocks could not be had (ENOSPC for a full disk).</exception>
    public void Reserve(long from, long length) => Pal.Allocate(_handle, from, length);

    /// <summary>Drops the file's clean pages from the operating system's cache; false where this is not supported.</summary>
    public bool DropCachedPages() => Pal.DropCachedPages(_handle);

    /// <summary>Turns a range inside the file's length into a hole; false where the file system cannot.</summary>
    public bool ReleaseRange(long from, long length) => Pal.PunchHole(_handle, from, length);

    public void Write(long offset, ReadOnlySpan<byte> data) => RandomAccess.Write(_handle, data, offset);

    public int Read(long offset, Span<byte> buffer)
    {
        var total = 0;
        while (total < buffer.Length)
        {
            var read = RandomAccess.Read(_handle, buffer[total..], offset + total);
            if (read == 0)
                break;
            total += read;
        }
        return total;
    }

    public void Flush() => Pal.FlushData(_handle);

    public void Dispose() => _handle.Dispose();
}
