using System.Buffers.Binary;
using System.Numerics;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A numeric field's sort key per entry (its smallest value, in the order-preserving form of
/// <see cref="TermEncoding"/> read as a big-endian ulong), or an exact field's term id per entry, stored
/// densely: one tree value per block of <see cref="BlockSize"/> entries (<see cref="TermIdBlockSize"/> for
/// term ids). A sort walks matches in id order, so it reads one block per <see cref="EntriesPerBlock"/> ids
/// instead of descending the doc-value tree per match; a batch decodes each block it touches once and
/// encodes it back once at <see cref="Flush"/>.
/// </summary>
/// <remarks>
/// A stored block starts with a width byte and the smallest value (the base, 8 bytes little-endian).
/// With a width of 1–57 bits, each entry then has a code of that many bits, packed little-endian one
/// after another: 0 when it has no value (missing, null, all-null or deleted), else its value minus the
/// base plus 1, so a read touches one place in the block. Timestamps in seconds over a year take 25 bits,
/// so a block of them fits two pages (whole bytes took 4 each, just over two, and so three), and a block of
/// term ids (<see cref="TermIdBlockSize"/>) stays in a leaf beside other blocks up to 31 bits instead of taking
/// a page of its own.
/// A block whose codes need more bits, up to values spanning the whole 64-bit range, has width 0, a
/// presence bit per entry and the raw 8-byte values. A block with no value at all is not stored.
/// <para>A column of doubles (made with <c>decimals</c>) stores a block whose values all have at most three
/// decimal places as those values times 10, 100 or 1,000, when that takes fewer bits: its width byte is
/// <see cref="DecimalFlag"/> with the scale (0–3) in bits 5–6 and the width (1–31) below, its base is the
/// smallest scaled value as a long, and a read divides back, which gives the same double. Prices in cents up
/// to 2,980.00 take 19 bits instead of the 56 their doubles' order-preserving bits span.</para>
/// </remarks>
internal sealed partial class NumericColumn
{
    /// <summary>
    /// The entries per block of a column of sort keys (<see cref="ForSortKeys"/>). Such a block is past a leaf's
    /// inline limit and takes pages of its own, so what its size pays for is whole pages: 4,096 codes up to 15
    /// bits fit one page, where two blocks of 2,048 took a page each (1M benchmark prices: 4.0 → 2.0 MB), wider
    /// codes take no more pages than two half blocks did, and a sort steps through half as many blocks.
    /// </summary>
    public const int BlockSize = 1 << BlockShift;

    /// <summary>
    /// The entries per block of a column of term ids (<see cref="ForTermIds"/>). Past 7 bits a block of 2,048
    /// codes is over a leaf's inline limit and takes a page of its own: 5,000 benchmark brands (13 bits) filled
    /// 3.3 KB of each 8 KB page. 512 codes stay inline up to 31 bits. Sort-key columns keep large blocks: a sort
    /// whose matches spread over the whole index reads every block, and blocks of 512 took a sorted equality
    /// query's p50 from 87–96 to 145–165 µs at 1M benchmark records (docs/benchmarks.md).
    /// </summary>
    public const int TermIdBlockSize = 1 << TermIdBlockShift;

    private const int BlockShift = 12;
    private const int TermIdBlockShift = 9;
    private const int HeaderSize = 9;
    private const int FullRangeWidth = 0;
    // A code is read with one unaligned 8-byte read: it may start up to 7 bits into the first of those bytes.
    private const int MaxPackedBits = 57;
    private const int DecimalFlag = 0x80;
    private const int MaxDecimalBits = 31;
    private const int MaxScale = 3;
    // Scaled values stay within the integers a double holds exactly.
    private const long MaxScaled = 1L << 53;
    private static readonly double[] Powers = [1, 10, 100, 1_000];
    private readonly Tree _tree;
    private readonly bool _decimals;
    private readonly int _shift;
    private readonly int _size;

    private readonly Dictionary<long, DecodedBlock> _changed = [];
    // Allocated on first use: a sort that reads its blocks in place (StoredBlock) never needs it.
    private byte[]? _cached;
    private long _cachedBlock = -1;
    private int _cachedLength;

    // A stack key would tie the value span the tree hands back to this frame.
    private readonly byte[] _key = new byte[8];

    // StoredBlock's cursor and the block it is on (-1: not on one); beyond MaxSteps blocks ahead a seek is cheaper.
    private const int MaxSteps = 8;
    private TreeCursor? _cursor;
    private long _cursorBlock = -1;

    private NumericColumn(Tree tree, bool decimals, int shift)
    {
        _tree = tree;
        _decimals = decimals;
        _shift = shift;
        _size = 1 << shift;
    }

    /// <summary>A numeric field's column of sort keys; <paramref name="decimals"/> for doubles (see the remarks).</summary>
    public static NumericColumn ForSortKeys(Tree tree, bool decimals) => new(tree, decimals, BlockShift);

    /// <summary>An exact field's column of term ids.</summary>
    public static NumericColumn ForTermIds(Tree tree) => new(tree, decimals: false, TermIdBlockShift);

    /// <summary>The entries per block.</summary>
    public int EntriesPerBlock => _size;

    /// <summary>The number of the block holding <paramref name="entryId"/>.</summary>
    public long BlockOf(long entryId) => entryId >> _shift;

    /// <summary>The entry's sort key or term id; false when the entry has no non-null value.</summary>
    public bool TryGet(long entryId, out ulong value)
    {
        var number = BlockOf(entryId);
        if (_changed.Count != 0 && _changed.TryGetValue(number, out var changed))
            return changed.TryGet((int)(entryId & (_size - 1)), out value);
        if (number != _cachedBlock)
        {
            var stored = Stored(number);
            _cached ??= new byte[MaxStoredSize(_size)];
            stored.CopyTo(_cached);
            _cachedLength = stored.Length;
            _cachedBlock = number;
        }
        return TryRead(_cached.AsSpan(0, _cachedLength), entryId, out value);
    }

    /// <summary>
    /// The sort keys or term ids of <paramref name="entryIds"/> (increasing) into <paramref name="values"/>, with
    /// <paramref name="present"/>[i] false for an entry that has none: what <see cref="TryGet"/> gives one by one, read
    /// a block at a time from the block in place (<see cref="StoredBlock"/>), its header decoded once per block
    /// instead of once per entry. A collector reads its batch of matches so.
    /// </summary>
    public void Read(ReadOnlySpan<long> entryIds, Span<ulong> values, Span<bool> present)
    {
        if (_changed.Count != 0)
        {
            for (var i = 0; i < entryIds.Length; i++)
                present[i] = TryGet(entryIds[i], out values[i]);
            return;
        }
        var start = 0;
        while (start < entryIds.Length)
        {
            var number = BlockOf(entryIds[start]);
            var end = EndOfBlockRun(entryIds, start, number);
            ReadBlock(StoredBlock(number), entryIds[start..end], values[start..end], present[start..end]);
            start = end;
        }
    }

    private void ReadBlock(ReadOnlySpan<byte> block, ReadOnlySpan<long> entryIds, Span<ulong> values, Span<bool> present)
    {
        if (block.IsEmpty)
        {
            present.Clear();
            return;
        }
        var mask = _size - 1;
        var width = block[0];
        if ((width & DecimalFlag) != 0)
        {
            var bits = width & MaxDecimalBits;
            var smallest = (long)BinaryPrimitives.ReadUInt64LittleEndian(block[1..]);
            var power = Powers[(width >> 5) & MaxScale];
            for (var i = 0; i < entryIds.Length; i++)
            {
                var code = ReadCode(block, (int)(entryIds[i] & mask), bits);
                present[i] = code != 0;
                values[i] = code == 0 ? 0 : TermEncoding.DoubleKey((smallest + (long)code - 1) / power);
            }
            return;
        }
        if (width != FullRangeWidth)
        {
            var smallest = BinaryPrimitives.ReadUInt64LittleEndian(block[1..]);
            for (var i = 0; i < entryIds.Length; i++)
            {
                var code = ReadCode(block, (int)(entryIds[i] & mask), width);
                present[i] = code != 0;
                values[i] = smallest + code - 1;
            }
            return;
        }
        for (var i = 0; i < entryIds.Length; i++)
            present[i] = TryRead(block, (int)(entryIds[i] & mask), _size, out values[i]);
    }

    /// <summary>
    /// Block <paramref name="number"/> as stored (empty when it holds no value), for a reader that walks
    /// ids in order and keeps the block while its ids last: the span points into the snapshot's pages,
    /// so it is read without a copy and stays valid until the read transaction ends. Asked for in
    /// increasing order, the next block is usually the cursor's next entry, so the walk steps along the
    /// leaves instead of descending from the root per block (a query whose matches spread over the whole
    /// index reads every block).
    /// </summary>
    public ReadOnlySpan<byte> StoredBlock(long number)
    {
        if (_changed.Count != 0)
            throw new InvalidOperationException("A column with unflushed changes has no stored blocks to read.");
        BinaryPrimitives.WriteInt64BigEndian(_key, number);
        var cursor = _cursor ??= _tree.CreateCursor();
        if (_cursorBlock < 0 || number < _cursorBlock || number - _cursorBlock > MaxSteps)
        {
            if (!cursor.Seek(_key))
            {
                _cursorBlock = -1;
                return default;
            }
        }
        else
        {
            while (_cursorBlock < number)
            {
                if (!cursor.MoveNext())
                {
                    _cursorBlock = -1;
                    return default;
                }
                _cursorBlock = BinaryPrimitives.ReadInt64BigEndian(cursor.Key);
            }
        }
        _cursorBlock = BinaryPrimitives.ReadInt64BigEndian(cursor.Key);
        return _cursorBlock == number ? Checked(number, cursor.Value) : default;
    }

    private ReadOnlySpan<byte> Stored(long number)
    {
        BinaryPrimitives.WriteInt64BigEndian(_key, number);
        return _tree.TryGet(_key, out var stored) ? Checked(number, stored) : default;
    }

    private ReadOnlySpan<byte> Checked(long number, ReadOnlySpan<byte> stored)
    {
        var decimalWidth = stored.Length > 0 && (stored[0] & DecimalFlag) != 0 ? stored[0] & MaxDecimalBits : -1;
        if (stored.Length < HeaderSize || (stored[0] > MaxPackedBits && decimalWidth < 0) || decimalWidth == 0 || stored.Length != StoredSize(stored[0], _size))
            throw new Folio.Storage.CorruptionException($"Block {number} of numeric column '{_tree.Name}' has {stored.Length} bytes, which does not fit its header.");
        return stored;
    }

    /// <summary>Reads the entry's sort key or term id from its block (see <see cref="StoredBlock"/>); false when it has none.</summary>
    public bool TryRead(ReadOnlySpan<byte> block, long entryId, out ulong value) => TryRead(block, (int)(entryId & (_size - 1)), _size, out value);

    private static bool TryRead(ReadOnlySpan<byte> block, int index, int size, out ulong value)
    {
        value = 0;
        if (block.IsEmpty)
            return false;
        var width = block[0];
        if ((width & DecimalFlag) != 0)
        {
            var code = ReadCode(block, index, width & MaxDecimalBits);
            if (code == 0)
                return false;
            var scaled = (long)BinaryPrimitives.ReadUInt64LittleEndian(block[1..]) + (long)code - 1;
            value = TermEncoding.DoubleKey(scaled / Powers[(width >> 5) & MaxScale]);
            return true;
        }
        if (width != FullRangeWidth)
        {
            var code = ReadCode(block, index, width);
            if (code == 0)
                return false;
            value = BinaryPrimitives.ReadUInt64LittleEndian(block[1..]) + code - 1;
            return true;
        }
        if ((block[HeaderSize + (index >> 3)] & (1 << (index & 7))) == 0)
            return false;
        value = BinaryPrimitives.ReadUInt64LittleEndian(block[(FullRangeValuesOffset(size) + index * 8)..]);
        return true;
    }

    /// <summary>Sets the entry's sort key or term id. Written at <see cref="Flush"/>.</summary>
    public void Set(long entryId, ulong value) => ForWrite(entryId).Set((int)(entryId & (_size - 1)), value);

    /// <summary>Removes the entry's sort key or term id (it sorts as missing). Written at <see cref="Flush"/>.</summary>
    public void Clear(long entryId) => ForWrite(entryId).Clear((int)(entryId & (_size - 1)));

    /// <summary>Writes the blocks changed since the last flush; a block left without values is removed.</summary>
    public void Flush()
    {
        Span<byte> key = stackalloc byte[8];
        foreach (var (number, block) in _changed)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, number);
            if (!block.Range(out var smallest, out var largest))
            {
                _tree.Delete(key);
                continue;
            }
            var width = largest - smallest == ulong.MaxValue ? FullRangeWidth : BitsNeeded(largest - smallest + 1);
            if (width > MaxPackedBits)
                width = FullRangeWidth;
            if (_decimals && block.TryScale(out var scale, out var smallestScaled, out var scaledWidth)
                && (width == FullRangeWidth || scaledWidth < width))
            {
                var header = DecimalFlag | (scale << 5) | scaledWidth;
                var scaledBlock = _tree.Reserve(key, StoredSize(header, _size));
                scaledBlock.Clear();
                block.EncodeScaled(scaledBlock, scaledWidth, Powers[scale], smallestScaled);
                scaledBlock[0] = (byte)header;
                BinaryPrimitives.WriteInt64LittleEndian(scaledBlock[1..], smallestScaled);
                continue;
            }
            var stored = _tree.Reserve(key, StoredSize(width, _size));
            stored.Clear();
            block.Encode(stored, width, smallest);
            stored[0] = (byte)width;
            BinaryPrimitives.WriteUInt64LittleEndian(stored[1..], smallest);
        }
        _changed.Clear();
    }

    private static int BitsNeeded(ulong range) => 64 - BitOperations.LeadingZeroCount(range);

    private static int StoredSize(int width, int size) =>
        width == FullRangeWidth ? MaxStoredSize(size) : HeaderSize + (size / 8 * ((width & DecimalFlag) != 0 ? width & MaxDecimalBits : width));

    private static int FullRangeValuesOffset(int size) => HeaderSize + size / 8;

    private static int MaxStoredSize(int size) => FullRangeValuesOffset(size) + size * 8;

    /// <summary>
    /// Where entry <paramref name="index"/>'s code sits: the offset of the 8 bytes that end with the code's last
    /// byte (the header guarantees 8 readable bytes before the first code, so no read runs past the block and
    /// the block needs no padding) and the code's first bit within them.
    /// </summary>
    private static (int Offset, int Shift) CodePlace(int index, int width)
    {
        var endByte = ((index + 1) * width + 7) >> 3;
        return (HeaderSize + endByte - 8, index * width - ((endByte - 8) * 8));
    }

    private static ulong ReadCode(ReadOnlySpan<byte> block, int index, int width)
    {
        var (offset, shift) = CodePlace(index, width);
        return (BinaryPrimitives.ReadUInt64LittleEndian(block[offset..]) >> shift) & (ulong.MaxValue >> (64 - width));
    }

    /// <summary>ORs entry <paramref name="index"/>'s code into a cleared block; the bits around it stay as they are.</summary>
    private static void WriteCode(Span<byte> block, int index, int width, ulong code)
    {
        var (offset, shift) = CodePlace(index, width);
        var word = block[offset..];
        BinaryPrimitives.WriteUInt64LittleEndian(word, BinaryPrimitives.ReadUInt64LittleEndian(word) | (code << shift));
    }

    private DecodedBlock ForWrite(long entryId)
    {
        var number = BlockOf(entryId);
        if (_changed.TryGetValue(number, out var block))
            return block;
        block = new DecodedBlock(_size);
        block.Decode(Stored(number));
        if (number == _cachedBlock)
            _cachedBlock = -1;
        _changed.Add(number, block);
        return block;
    }

    /// <summary>A block being changed by a batch: every value and presence bit in the open.</summary>
    private sealed class DecodedBlock
    {
        private readonly ulong[] _values;
        private readonly ulong[] _present;

        public DecodedBlock(int size)
        {
            _values = new ulong[size];
            _present = new ulong[size / 64];
        }

        public bool TryGet(int index, out ulong value)
        {
            value = _values[index];
            return (_present[index >> 6] & (1UL << (index & 63))) != 0;
        }

        public void Set(int index, ulong value)
        {
            _values[index] = value;
            _present[index >> 6] |= 1UL << (index & 63);
        }

        public void Clear(int index)
        {
            _values[index] = 0;
            _present[index >> 6] &= ~(1UL << (index & 63));
        }

        /// <summary>The smallest and largest present value; false when none is present.</summary>
        public bool Range(out ulong smallest, out ulong largest)
        {
            smallest = ulong.MaxValue;
            largest = 0;
            var any = false;
            for (var i = 0; i < _values.Length; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                any = true;
                smallest = Math.Min(smallest, _values[i]);
                largest = Math.Max(largest, _values[i]);
            }
            return any;
        }

        public void Decode(ReadOnlySpan<byte> stored)
        {
            for (var i = 0; i < _values.Length; i++)
            {
                if (TryRead(stored, i, _values.Length, out var value))
                    Set(i, value);
            }
        }

        /// <summary>
        /// Finds the smallest scale (a power of ten up to 1,000) that turns every present value, read as a double,
        /// into an integer that divides back to exactly that double, with the smallest scaled value and the bits
        /// their range needs; false when there is none or the range needs more than <see cref="MaxDecimalBits"/>.
        /// </summary>
        public bool TryScale(out int scale, out long smallest, out int width)
        {
            scale = 0;
            smallest = 0;
            width = 0;
            for (var i = 0; i < _values.Length; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                var value = TermEncoding.DoubleOfKey(_values[i]);
                if (!double.IsFinite(value))
                    return false;
                // A value exact at one scale stays exact at the larger ones (the same quotient, rounded the same way).
                while (!TryScaled(value, Powers[scale], out _))
                {
                    if (++scale > MaxScale)
                        return false;
                }
            }
            long low = long.MaxValue, high = long.MinValue;
            for (var i = 0; i < _values.Length; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                if (!TryScaled(TermEncoding.DoubleOfKey(_values[i]), Powers[scale], out var scaled))
                    return false;
                low = Math.Min(low, scaled);
                high = Math.Max(high, scaled);
            }
            smallest = low;
            width = BitsNeeded((ulong)(high - low) + 1);
            return width <= MaxDecimalBits;
        }

        private static bool TryScaled(double value, double power, out long scaled)
        {
            var product = Math.Round(value * power);
            scaled = (long)product;
            return Math.Abs(product) <= MaxScaled && scaled / power == value;
        }

        /// <summary>Writes the scaled codes (see <see cref="TryScale"/>) into <paramref name="block"/> (cleared by the caller) before its header.</summary>
        public void EncodeScaled(Span<byte> block, int width, double power, long smallest)
        {
            for (var i = 0; i < _values.Length; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                WriteCode(block, i, width, (ulong)((long)Math.Round(TermEncoding.DoubleOfKey(_values[i]) * power) - smallest + 1));
            }
        }

        /// <summary>
        /// Writes the block's codes into <paramref name="block"/> (cleared by the caller), before its header: a
        /// code's 8-byte write may cover header bytes, whose bits it leaves as they are.
        /// </summary>
        public void Encode(Span<byte> block, int width, ulong smallest)
        {
            for (var i = 0; i < _values.Length; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                if (width == FullRangeWidth)
                {
                    block[HeaderSize + (i >> 3)] |= (byte)(1 << (i & 7));
                    BinaryPrimitives.WriteUInt64LittleEndian(block[(FullRangeValuesOffset(_values.Length) + i * 8)..], _values[i]);
                    continue;
                }
                WriteCode(block, i, width, _values[i] - smallest + 1);
            }
        }
    }

    /// <summary>The end of the run of sorted entry ids from <paramref name="start"/> that lie in block <paramref name="number"/>.</summary>
    private int EndOfBlockRun(ReadOnlySpan<long> entryIds, int start, long number)
    {
        var end = start + 1;
        while (end < entryIds.Length && BlockOf(entryIds[end]) == number)
            end++;
        return end;
    }
}
