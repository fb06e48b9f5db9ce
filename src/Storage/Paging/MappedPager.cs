using System.IO.MemoryMappedFiles;
using Folio.Storage.Platform;

namespace Folio.Storage.Paging;

/// <summary>
/// The data file mapped read-only into memory; writes go through positional writes, which Linux's
/// unified page cache makes visible through the mapping.
/// </summary>
internal sealed unsafe class MappedPager : Pager
{
    // Blocks taken ahead of what a flush needs beyond the reserved part (the file's growth step, a released tail), so
    // small flushes do not each call fallocate: a 64th of what is needed, from 1 MB to 4 MB. A fixed 4 MB held 3.9 MB
    // of blocks beyond an 84 MB search index's pages right after its last commit (docs/benchmarks.md).
    private const long MinReserveAhead = 1L << 20;
    private const long MaxReserveAhead = 4L << 20;

    private readonly PhysicalFile _file;
    private readonly List<MappedRegion> _regions = [];
    private readonly Lock _growLock = new();
    private volatile MappedRegion? _current;

    // Bytes from the file's start known to have disk blocks; beyond it, up to the length, a released tail is a hole.
    private long _reserved;

    public MappedPager(PhysicalFile file, int pageSize)
        : base(pageSize)
    {
        _file = file;
        var length = file.Length;
        _reserved = length;
        if (length > 0)
            Map(length);
    }

    public override long NumberOfPages => (_current?.Length ?? 0) / PageSize;

    public override ReadOnlySpan<byte> Read(long pageNumber, int pageCount)
    {
        var region = _current;
        var offset = pageNumber * PageSize;
        var length = (long)pageCount * PageSize;
        if (region is null || pageNumber < 0 || offset + length > region.Length)
            throw OutOfRange(pageNumber, pageCount);
        return new ReadOnlySpan<byte>(region.Pointer + offset, checked((int)length));
    }

    public override void Write(long pageNumber, ReadOnlySpan<byte> data) => _file.Write(pageNumber * PageSize, data);

    public override void EnsureCapacity(long numberOfPages)
    {
        var required = numberOfPages * PageSize;
        lock (_growLock)
        {
            var current = _current?.Length ?? 0;
            if (required <= current)
            {
                ReserveFor(required, current);
                return;
            }
            ReserveUpTo(current, required);
            // The length runs ahead of use (each growth remaps), but the blocks only a little ahead of what flushes
            // need: the rest of the step would be disk the database holds for nothing until it is used.
            var size = NextSize(current, required);
            try
            {
                _file.Extend(size);
            }
            catch (IOException e) when (Platform.Pal.IsDiskFull(e))
            {
                throw new DiskFullException($"The disk has no room to grow the data file to {required} bytes; the journal keeps the committed transactions until it does.", e);
            }
            Map(size);
            ReserveFor(required, size);
        }
    }

    /// <summary>Blocks up to <paramref name="required"/> and a step ahead (within <paramref name="length"/>) when the disk has them.</summary>
    private void ReserveFor(long required, long length)
    {
        try
        {
            ReserveUpTo(Math.Min(length, required + Math.Clamp(required / 64, MinReserveAhead, MaxReserveAhead)), required);
        }
        catch (DiskFullException)
        {
            // The step ahead does not fit; what is needed now may.
            ReserveUpTo(required, required);
        }
    }

    public override void ReleaseTail(long fromPage)
    {
        lock (_growLock)
        {
            var from = fromPage * PageSize;
            var length = _current?.Length ?? 0;
            if (from >= _reserved || from >= length)
                return;
            if (_file.ReleaseRange(from, length - from))
                _reserved = from;
        }
    }

    public override void ReleaseResidentPages()
    {
        // Under the lock that disposal takes: a region unmapped meanwhile could have its addresses reused by another
        // mapping, whose anonymous pages MADV_DONTNEED would zero.
        lock (_growLock)
        {
            foreach (var region in _regions)
                Pal.ReleaseResidentPages(region.Pointer, region.Length);
        }
    }

    public override void ReleaseResidentAndCachedPages()
    {
        lock (_growLock)
        {
            foreach (var region in _regions)
            {
                Pal.ReleaseResidentPages(region.Pointer, region.Length);
                Pal.AdviseRandomAccess(region.Pointer, region.Length);
            }
            _file.DropCachedPages();
        }
    }

    /// <summary>Gives blocks back to a released tail before pages are written there, so a full disk fails here and not mid-flush.</summary>
    private void ReserveUpTo(long target, long required)
    {
        if (target <= _reserved)
            return;
        try
        {
            _file.Reserve(_reserved, target - _reserved);
        }
        catch (IOException e) when (Platform.Pal.IsDiskFull(e))
        {
            throw new DiskFullException($"The disk has no room to grow the data file to {required} bytes; the journal keeps the committed transactions until it does.", e);
        }
        _reserved = target;
    }

    public override void Sync() => _file.Flush();

    public override void Dispose()
    {
        lock (_growLock)
        {
            foreach (var region in _regions)
                region.Dispose();
            _regions.Clear();
            _current = null;
            if (TrimOnDisposeTo >= 0 && _file.Length > TrimOnDisposeTo * PageSize)
            {
                try
                {
                    // Nothing is mapped any more, so no reader can touch the pages cut off.
                    _file.SetLength(TrimOnDisposeTo * PageSize);
                }
                catch (IOException)
                {
                    // A file left longer is only disk not returned yet; the next clean close tries again.
                }
            }
        }
        _file.Dispose();
    }

    private void Map(long length)
    {
        var region = new MappedRegion(_file, length);
        _regions.Add(region);
        _current = region;
    }

    /// <summary>One mapping of the file at one size; kept until the pager is disposed.</summary>
    private sealed class MappedRegion : IDisposable
    {
        private readonly MemoryMappedFile _map;
        private readonly MemoryMappedViewAccessor _view;

        public MappedRegion(PhysicalFile file, long length)
        {
            _map = MemoryMappedFile.CreateFromFile(file.Handle, null, length, MemoryMappedFileAccess.Read, HandleInheritability.None, leaveOpen: true);
            _view = _map.CreateViewAccessor(0, length, MemoryMappedFileAccess.Read);
            byte* pointer = null;
            _view.SafeMemoryMappedViewHandle.AcquirePointer(ref pointer);
            Pointer = pointer + _view.PointerOffset;
            Length = length;
        }

        public byte* Pointer { get; }

        public long Length { get; }

        public void Dispose()
        {
            _view.SafeMemoryMappedViewHandle.ReleasePointer();
            _view.Dispose();
            _map.Dispose();
        }
    }
}
