using Folio.Storage.Platform;

namespace Folio.Storage.Paging;

/// <summary>
/// The data file held as one array in memory and written through to an <see cref="IStorageFile"/>;
/// used where there is no file to map (in-memory environments, simulated devices in tests).
/// </summary>
internal sealed class MemoryImagePager : Pager
{
    private readonly IStorageFile _file;
    private readonly Lock _lock = new();
    private volatile byte[] _image;

    public MemoryImagePager(IStorageFile file, int pageSize)
        : base(pageSize)
    {
        _file = file;
        _image = new byte[file.Length];
        _file.Read(0, _image);
    }

    public override long NumberOfPages => _image.Length / PageSize;

    public override ReadOnlySpan<byte> Read(long pageNumber, int pageCount)
    {
        var image = _image;
        var offset = pageNumber * PageSize;
        var length = (long)pageCount * PageSize;
        if (pageNumber < 0 || offset + length > image.Length)
            throw OutOfRange(pageNumber, pageCount);
        return new ReadOnlySpan<byte>(image, (int)offset, (int)length);
    }

    public override void Write(long pageNumber, ReadOnlySpan<byte> data)
    {
        lock (_lock)
        {
            data.CopyTo(_image.AsSpan(checked((int)(pageNumber * PageSize))));
            _file.Write(pageNumber * PageSize, data);
        }
    }

    public override void EnsureCapacity(long numberOfPages)
    {
        var required = numberOfPages * PageSize;
        lock (_lock)
        {
            var image = _image;
            if (required <= image.Length)
                return;
            var size = NextSize(image.Length, required);
            if (size > Array.MaxLength)
                size = required;
            // Readers keep spans into the old array; they only read pages the flusher does not touch.
            var grown = new byte[size];
            image.CopyTo(grown, 0);
            _file.SetLength(size);
            _image = grown;
        }
    }

    public override void Sync() => _file.Flush();

    public override void Dispose() => _file.Dispose();
}
