using System.Numerics;
using Folio.Storage.Paging;

namespace Folio.Storage.Transactions;

/// <summary>
/// Page allocation. Free pages are bits in bitmap pages (one bit per page, set = free); a freed page
/// can be reused by the very next transaction, because readers of older snapshots find their version
/// of it in the page table and the flusher never writes a version a live reader could still need.
/// </summary>
internal sealed partial class PageTransaction
{
    public const int BitsPerBitmapPage = (StorageLimits.PageSize - PageHeader.Size) * 8;

    private long _nextPage;
    private long[] _bitmapPages = [];
    private int[] _freeCounts = [];
    private bool _allocationChanged;

    public long NextPage => _nextPage;

    public long[] BitmapPages => _bitmapPages;

    public int[] FreeCounts => _freeCounts;

    public bool AllocationChanged => _allocationChanged;

    private void BeginAllocation(EnvironmentState state)
    {
        _nextPage = state.NextPage;
        _bitmapPages = state.BitmapPages;
        _freeCounts = state.FreeCounts;
        _allocationChanged = false;
    }

    private long AllocatePageNumbers(int count)
    {
        for (var b = 0; b < _freeCounts.Length; b++)
        {
            if (_freeCounts[b] < count)
                continue;
            var bits = GetPage(_bitmapPages[b])[PageHeader.Size..];
            var first = count == 1 ? FirstSetBit(bits) : FindRun(bits, count);
            if (first < 0)
                continue;
            var writable = ModifyPage(_bitmapPages[b])[PageHeader.Size..];
            for (var i = 0; i < count; i++)
                writable[(first + i) >> 3] &= (byte)~(1 << ((first + i) & 7));
            ChangeFreeCount(b, -count);
            return (long)b * BitsPerBitmapPage + first;
        }

        var pageNumber = _nextPage;
        _nextPage += count;
        _allocationChanged = true;
        EnsureBitmapCoverage();
        return pageNumber;
    }

    private void FreePageNumbers(long pageNumber, int count)
    {
        for (var p = pageNumber; p < pageNumber + count; p++)
        {
            var b = (int)(p / BitsPerBitmapPage);
            var bit = (int)(p % BitsPerBitmapPage);
            var bits = ModifyPage(_bitmapPages[b])[PageHeader.Size..];
            if ((bits[bit >> 3] & (1 << (bit & 7))) != 0)
                throw new CorruptionException($"Page {p} was freed twice.");
            bits[bit >> 3] |= (byte)(1 << (bit & 7));
            ChangeFreeCount(b, 1);
        }
    }

    /// <summary>Every page below the high-water mark needs a bit; add bitmap pages (taken from the high-water mark) as it rises.</summary>
    private void EnsureBitmapCoverage()
    {
        while (_nextPage > (long)_bitmapPages.Length * BitsPerBitmapPage)
        {
            if (_bitmapPages.Length >= EnvironmentState.MaxBitmapPages)
                throw new StorageException("The data file reached its maximum size.");
            var bitmapPage = _nextPage++;
            var buffer = _environment.PageBuffers.RentZeroed();
            PageHeader.Initialize(buffer, bitmapPage, PageFlags.FreeSpaceBitmap);
            DirtyPages[bitmapPage] = buffer;
            _bitmapPages = [.. _bitmapPages, bitmapPage];
            _freeCounts = [.. _freeCounts, 0];
        }
    }

    private void ChangeFreeCount(int bitmap, int delta)
    {
        if (ReferenceEquals(_freeCounts, _state.FreeCounts))
            _freeCounts = (int[])_freeCounts.Clone();
        _freeCounts[bitmap] += delta;
        _allocationChanged = true;
    }

    private static int FirstSetBit(ReadOnlySpan<byte> bits)
    {
        var index = bits.IndexOfAnyExcept((byte)0);
        return index < 0 ? -1 : index * 8 + BitOperations.TrailingZeroCount(bits[index]);
    }

    private static int FindRun(ReadOnlySpan<byte> bits, int count)
    {
        var run = 0;
        var total = bits.Length * 8;
        for (var i = 0; i < total; i++)
        {
            if ((i & 7) == 0 && bits[i >> 3] == 0)
            {
                run = 0;
                i += 7;
                continue;
            }
            run = (bits[i >> 3] & (1 << (i & 7))) != 0 ? run + 1 : 0;
            if (run == count)
                return i - count + 1;
        }
        return -1;
    }

    /// <summary>Counts the free pages of each bitmap page; done once at open.</summary>
    public static int[] CountFree(PageTransaction reader, long[] bitmapPages)
    {
        var counts = new int[bitmapPages.Length];
        for (var b = 0; b < bitmapPages.Length; b++)
        {
            var bits = reader.GetPage(bitmapPages[b])[PageHeader.Size..];
            var total = 0;
            for (var i = 0; i + 8 <= bits.Length; i += 8)
                total += BitOperations.PopCount(System.Buffers.Binary.BinaryPrimitives.ReadUInt64LittleEndian(bits[i..]));
            counts[b] = total;
        }
        return counts;
    }
}
