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

    public void SetLength(long length) => RandomAccess.SetLength(_handle, length);

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
