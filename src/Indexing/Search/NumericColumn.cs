using System.Buffers.Binary;
using System.Numerics;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A numeric field's sort key per entry (its smallest value, in the order-preserving form of
/// <see cref="TermEncoding"/> read as a big-endian ulong), stored densely: one tree value per block of
/// <see cref="BlockSize"/> entries. A sort walks matches in id order, so it reads one block per
/// 2,048 ids instead of descending the doc-value tree per match; a batch decodes each block it
/// touches once and encodes it back once at <see cref="Flush"/>.
/// </summary>
/// <remarks>
/// A stored block is: the byte width of its values (0–8), the smallest value (the base, 8 bytes
/// little-endian), a presence bit per entry (missing, null and all-null entries have none), then per
/// entry its value minus the base in that many bytes, and 8 bytes of padding so any value reads as
/// one unaligned ulong. Timestamps within a year take 4 bytes each; a block with no present entry is
/// not stored at all.
/// </remarks>
internal sealed class NumericColumn(Tree tree)
{
    public const int BlockSize = 2048;

    private const int BlockShift = 11;
    private const int PresenceOffset = 9;
    private const int ValuesOffset = PresenceOffset + BlockSize / 8;
    private const int Padding = 8;
    private const int MaxStoredSize = ValuesOffset + BlockSize * 8 + Padding;

    private readonly Dictionary<long, DecodedBlock> _changed = [];
    private readonly byte[] _cached = new byte[MaxStoredSize];
    private long _cachedBlock = -1;
    private bool _cachedExists;
    private int _cachedWidth;
    private ulong _cachedBase;
    private ulong _cachedMask;

    /// <summary>The entry's sort key; false when the entry has no non-null value.</summary>
    public bool TryGet(long entryId, out ulong value)
    {
        var number = entryId >> BlockShift;
        var index = (int)(entryId & (BlockSize - 1));
        if (_changed.Count != 0 && _changed.TryGetValue(number, out var changed))
            return changed.TryGet(index, out value);
        if (number != _cachedBlock)
            Load(number);
        if (!_cachedExists || (_cached[PresenceOffset + (index >> 3)] & (1 << (index & 7))) == 0)
        {
            value = 0;
            return false;
        }
        value = _cachedWidth == 0
            ? _cachedBase
            : _cachedBase + (BinaryPrimitives.ReadUInt64LittleEndian(_cached.AsSpan(ValuesOffset + index * _cachedWidth)) & _cachedMask);
        return true;
    }

    /// <summary>Sets the entry's sort key. Written at <see cref="Flush"/>.</summary>
    public void Set(long entryId, ulong value) => ForWrite(entryId).Set((int)(entryId & (BlockSize - 1)), value);

    /// <summary>Removes the entry's sort key (it sorts as missing). Written at <see cref="Flush"/>.</summary>
    public void Clear(long entryId) => ForWrite(entryId).Clear((int)(entryId & (BlockSize - 1)));

    /// <summary>Writes the blocks changed since the last flush; a block left without values is removed.</summary>
    public void Flush()
    {
        Span<byte> key = stackalloc byte[8];
        foreach (var (number, block) in _changed)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, number);
            if (!block.Range(out var smallest, out var largest))
            {
                tree.Delete(key);
                continue;
            }
            var width = (BitsNeeded(largest - smallest) + 7) >> 3;
            var stored = tree.Reserve(key, ValuesOffset + (width == 0 ? 0 : BlockSize * width + Padding));
            stored.Clear();
            stored[0] = (byte)width;
            BinaryPrimitives.WriteUInt64LittleEndian(stored[1..], smallest);
            block.Encode(stored[PresenceOffset..], stored[ValuesOffset..], width, smallest);
        }
        _changed.Clear();
    }

    private static int BitsNeeded(ulong range) => 64 - BitOperations.LeadingZeroCount(range);

    private void Load(long number)
    {
        Span<byte> key = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        _cachedBlock = number;
        _cachedExists = tree.TryGet(key, out var stored);
        if (!_cachedExists)
            return;
        if (stored.Length < ValuesOffset || stored[0] > 8 || stored.Length != ValuesOffset + (stored[0] == 0 ? 0 : BlockSize * stored[0] + Padding))
            throw new Folio.Storage.CorruptionException($"Block {number} of numeric column '{tree.Name}' has {stored.Length} bytes, which does not fit its header.");
        stored.CopyTo(_cached);
        _cachedWidth = stored[0];
        _cachedBase = BinaryPrimitives.ReadUInt64LittleEndian(stored[1..]);
        _cachedMask = _cachedWidth == 8 ? ulong.MaxValue : (1UL << (_cachedWidth * 8)) - 1;
    }

    private DecodedBlock ForWrite(long entryId)
    {
        var number = entryId >> BlockShift;
        if (_changed.TryGetValue(number, out var block))
            return block;
        block = new DecodedBlock();
        Load(number);
        if (_cachedExists)
            block.Decode(_cached, _cachedWidth, _cachedBase, _cachedMask);
        _cachedBlock = -1;
        _changed.Add(number, block);
        return block;
    }

    /// <summary>A block being changed by a batch: every value and presence bit in the open.</summary>
    private sealed class DecodedBlock
    {
        private readonly ulong[] _values = new ulong[BlockSize];
        private readonly ulong[] _present = new ulong[BlockSize / 64];

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
            for (var i = 0; i < BlockSize; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                any = true;
                smallest = Math.Min(smallest, _values[i]);
                largest = Math.Max(largest, _values[i]);
            }
            return any;
        }

        public void Decode(ReadOnlySpan<byte> stored, int width, ulong smallest, ulong mask)
        {
            for (var i = 0; i < BlockSize; i++)
            {
                if ((stored[PresenceOffset + (i >> 3)] & (1 << (i & 7))) == 0)
                    continue;
                var delta = width == 0 ? 0 : BinaryPrimitives.ReadUInt64LittleEndian(stored[(ValuesOffset + i * width)..]) & mask;
                Set(i, smallest + delta);
            }
        }

        public void Encode(Span<byte> presence, Span<byte> values, int width, ulong smallest)
        {
            Span<byte> bytes = stackalloc byte[8];
            for (var i = 0; i < BlockSize; i++)
            {
                if ((_present[i >> 6] & (1UL << (i & 63))) == 0)
                    continue;
                presence[i >> 3] |= (byte)(1 << (i & 7));
                if (width == 0)
                    continue;
                BinaryPrimitives.WriteUInt64LittleEndian(bytes, _values[i] - smallest);
                bytes[..width].CopyTo(values[(i * width)..]);
            }
        }
    }
}
