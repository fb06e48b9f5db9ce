using System.Numerics;
using Folio.Storage;

namespace Folio.Indexing.Search;

/// <summary>
/// The positions of one posting list's entries in a full-text field (an inline list's, or one chunk's), kept under the
/// list's key in the field's positions tree (<see cref="SearchIndex.PositionsTree"/>): for each id of the list in its
/// order, as many positions as its frequency, the first as it is and each next as its distance from the one before
/// (positions ascend, so distances are never negative). A byte gives a width W (0 to <see cref="MaxWidth"/>); a varint the
/// number of blocks of <see cref="BlockSize"/> ids after the first, and as many varints where each starts in the bit stream,
/// as its distance in bits from the block before's start; then each value in a little-endian bit stream: W bits when it is
/// below 2^W − 1, otherwise W one bits followed by the Elias gamma code of its excess over 2^W − 1 plus one (the excess's
/// bit length less one in unary, then its bits below the top one).
/// </summary>
/// <remarks>
/// Lucene keeps positions per term the same way (<c>.pos</c>), and so the term is paid once per list instead of once a
/// token: an entry record that listed its tokens as term ids in order took about 13 bits a token at 1M benchmark
/// records, where a position within a short text takes about 5. W is chosen per list as the width with the fewest
/// bits, from a count of the values by bit length: a long text's far positions then cost an escape each instead of
/// widening every value of the list. The blocks are the posting list's (<see cref="Postings.PostingsFormat.BlockSize"/>):
/// a phrase that needs one entry's positions decodes the entry's block of ids and that block's positions, not the list's.
/// </remarks>
internal static class PositionLists
{
    /// <summary>The widest a list's values are written without an escape.</summary>
    public const int MaxWidth = 31;

    /// <summary>The ids a block of positions holds, as a block of the posting list does.</summary>
    public const int BlockSize = Postings.PostingsFormat.BlockSize;

    /// <summary>
    /// Encodes the positions of a list whose ids have <paramref name="frequencies"/> (as many positions each, in
    /// <paramref name="positions"/> one id after another, ascending within an id) into <paramref name="destination"/>,
    /// grown when too short; returns the encoding's length.
    /// </summary>
    public static int Encode(ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions, ref byte[] destination)
    {
        // The values by bit length, and how many of each length are all ones (2^length − 1, the one escaped at that width).
        Span<int> lengths = stackalloc int[33];
        Span<int> allOnes = stackalloc int[33];
        foreach (var value in Values(frequencies, positions))
        {
            var bitLength = BitLength(value);
            lengths[bitLength]++;
            if (((long)value + 1 & value) == 0)
                allOnes[bitLength]++;
        }
        var width = 0;
        var best = long.MaxValue;
        for (var w = 0; w <= MaxWidth; w++)
        {
            long bits = 0;
            for (var length = 0; length <= 32; length++)
            {
                if (lengths[length] == 0 || length < w)
                {
                    bits += lengths[length] * (long)w;
                    continue;
                }
                if (length == w)
                {
                    // Only all ones escape, with an excess of nothing: one more bit.
                    bits += lengths[length] * (long)w + allOnes[length];
                    continue;
                }
                // Longer values escape, with an excess (plus one) of at most length + 1 bits: a gamma code of at most
                // 2 × length + 1 bits, which bounds the room needed.
                bits += lengths[length] * (long)(w + 2 * length + 1);
            }
            if (bits < best)
            {
                best = bits;
                width = w;
            }
        }
        var blocks = Math.Max(0, (frequencies.Length + BlockSize - 1) / BlockSize - 1);
        // The count is exact but for escapes, where it is an upper bound; the writer stores whole 8-byte words, so the room
        // is rounded up to one. The table takes at most a varint of a long for each block and one for their number.
        var room = 1 + 10 * (blocks + 1) + checked((int)((best + 63) / 64 * 8));
        if (destination.Length < room)
            destination = new byte[Math.Max(room, destination.Length * 2)];
        destination[0] = (byte)width;
        var position = Postings.Varint.Write(destination, 1, (ulong)blocks);
        long written = 0, blockStart = 0;
        var at = 0;
        for (var id = 0; id < frequencies.Length; id++)
        {
            if (id > 0 && id % BlockSize == 0)
            {
                position = Postings.Varint.Write(destination, position, (ulong)(written - blockStart));
                blockStart = written;
            }
            for (var k = 0; k < frequencies[id]; k++, at++)
                written += ValueBits(k == 0 ? positions[at] : positions[at] - positions[at - 1], width);
        }
        var writer = new BitSpanWriter(destination.AsSpan(position, room - position));
        foreach (var value in Values(frequencies, positions))
            WriteValue(ref writer, value, width);
        return position + writer.Finish();
    }

    /// <summary>
    /// Decodes <paramref name="encoded"/>, the positions of a list whose ids have <paramref name="frequencies"/>, into
    /// <paramref name="positions"/> (as long as the frequencies' sum).
    /// </summary>
    public static void Decode(ReadOnlySpan<byte> encoded, ReadOnlySpan<int> frequencies, Span<int> positions)
    {
        var table = ReadHeader(encoded, out var width, out var blocks);
        if (blocks != Math.Max(0, (frequencies.Length + BlockSize - 1) / BlockSize - 1))
            throw new CorruptionException("A posting list's positions name another number of blocks than it has.");
        var streamStart = table;
        for (var b = 0; b < blocks; b++)
            ReadVarint(encoded, ref streamStart);
        // The table is read again beside the blocks (a writer decodes every list it extends; this allocates nothing).
        long bits = 0, blockStart = 0;
        var at = 0;
        for (var id = 0; id < frequencies.Length; id += BlockSize)
        {
            // Each block starts where the table says, so a reader that jumps to it reads what this one reads.
            if (id > 0)
                blockStart += (long)ReadVarint(encoded, ref table);
            if (bits != blockStart)
                throw new CorruptionException("A posting list's positions start a block elsewhere than their table says.");
            var ids = frequencies.Slice(id, Math.Min(BlockSize, frequencies.Length - id));
            var count = Count(ids);
            DecodeNext(encoded, streamStart, width, ref bits, ids, positions.Slice(at, count));
            at += count;
        }
        // What follows the last value may only pad its byte.
        if ((encoded.Length - streamStart) * 8L - bits >= 8)
            throw new CorruptionException("A posting list's positions go on past its entries.");
    }

    /// <summary>
    /// Reads the table of <paramref name="encoded"/>: its width, and where each block starts in the bit stream (0 for the
    /// first) into <paramref name="blockStarts"/>, grown when the list has more blocks than it holds (never shrunk, so a
    /// reader keeps one array for every list it loads). Returns where the bit stream starts; <paramref name="blockCount"/>
    /// is how many blocks the list has.
    /// </summary>
    public static int ReadTable(ReadOnlySpan<byte> encoded, ref long[] blockStarts, out int width, out int blockCount)
    {
        var position = ReadHeader(encoded, out width, out var blocks);
        blockCount = blocks + 1;
        if (blockStarts.Length < blockCount)
            blockStarts = new long[blockCount];
        blockStarts[0] = 0;
        for (var b = 1; b <= blocks; b++)
        {
            var distance = ReadVarint(encoded, ref position);
            if (distance > int.MaxValue)
                throw new CorruptionException("A posting list's positions put a block beyond their end.");
            blockStarts[b] = blockStarts[b - 1] + (long)distance;
        }
        return position;
    }

    /// <summary>The width of <paramref name="encoded"/> and its blocks after the first; returns where their table starts.</summary>
    private static int ReadHeader(ReadOnlySpan<byte> encoded, out int width, out int blocks)
    {
        if (encoded.IsEmpty)
            throw new CorruptionException("A posting list's positions are empty.");
        width = encoded[0];
        if (width > MaxWidth)
            throw new CorruptionException($"A posting list's positions are {width} bits wide.");
        var position = 1;
        var count = ReadVarint(encoded, ref position);
        // Each block's varint takes a byte at least.
        if (count > (ulong)(encoded.Length - position))
            throw new CorruptionException("A posting list's positions name more blocks than they hold.");
        blocks = (int)count;
        return position;
    }

    private static ulong ReadVarint(ReadOnlySpan<byte> encoded, ref int position)
    {
        try
        {
            return Postings.Varint.Read(encoded, ref position);
        }
        catch (InvalidDataException)
        {
            throw new CorruptionException("A posting list's positions are cut short in their table.");
        }
    }

    /// <summary>
    /// Decodes the positions of the next ids of a list, whose frequencies <paramref name="frequencies"/> are, from
    /// <paramref name="bits"/> into the list's bit stream (which starts at byte <paramref name="streamStart"/>; its values
    /// are <paramref name="width"/> bits wide), moving <paramref name="bits"/> past them: a reader that needs one entry's
    /// positions decodes from its block's start up to it, and goes on from there for a later entry.
    /// </summary>
    public static void DecodeNext(ReadOnlySpan<byte> encoded, int streamStart, int width, ref long bits, ReadOnlySpan<int> frequencies, Span<int> positions)
    {
        var reader = new BitSpanReader(encoded[streamStart..]);
        if (bits < 0 || bits > (encoded.Length - streamStart) * 8L)
            throw new CorruptionException("A posting list's positions start a block beyond their end.");
        reader.Skip((int)bits);
        var at = 0;
        foreach (var frequency in frequencies)
        {
            long position = 0;
            for (var k = 0; k < frequency; k++)
            {
                var value = ReadValue(ref reader, width);
                position = k == 0 ? value : position + value;
                if (position > IndexBatch.MaxPosition)
                    throw new CorruptionException("A posting list holds a position beyond any position.");
                positions[at++] = (int)position;
            }
        }
        bits = reader.BitsRead;
    }

    /// <summary>How many positions a list whose ids have <paramref name="frequencies"/> holds.</summary>
    public static int Count(ReadOnlySpan<int> frequencies)
    {
        var count = 0;
        foreach (var frequency in frequencies)
            count = checked(count + frequency);
        return count;
    }

    private static ValueEnumerable Values(ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions) => new(frequencies, positions);

    private static int BitLength(int value) => 32 - BitOperations.LeadingZeroCount((uint)value);

    private static int ValueBits(int value, int width)
    {
        var escape = (1L << width) - 1;
        if (value < escape)
            return width;
        // The excess's gamma code: its bit length less one in unary with the zero, then its bits below the top one.
        return width + 2 * BitLength((int)(value - escape + 1)) - 1;
    }

    private static void WriteValue(ref BitSpanWriter writer, int value, int width)
    {
        var escape = (1L << width) - 1;
        if (value < escape)
        {
            writer.Write((ulong)value, width);
            return;
        }
        writer.WriteOnes(width);
        var excess = (uint)(value - escape + 1);
        var length = BitLength((int)excess) - 1;
        // The bit length in unary (ones, then a zero), then the bits below the top one.
        writer.Write((1UL << length) - 1, length + 1);
        writer.Write(excess & ((1u << length) - 1), length);
    }

    private static int ReadValue(ref BitSpanReader reader, int width)
    {
        var escape = (1L << width) - 1;
        var value = (long)reader.Read(width);
        if (value < escape)
            return (int)value;
        var length = reader.ReadOnes(32);
        if (length > 31)
            throw new CorruptionException("A posting list holds a position beyond any position.");
        var excess = (1L << length) | (long)reader.Read(length);
        var result = escape + excess - 1;
        if (result > IndexBatch.MaxPosition)
            throw new CorruptionException("A posting list holds a position beyond any position.");
        return (int)result;
    }

    /// <summary>The values a list writes, in order: each id's first position, then its distances.</summary>
    private readonly ref struct ValueEnumerable(ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions)
    {
        private readonly ReadOnlySpan<int> _frequencies = frequencies;
        private readonly ReadOnlySpan<int> _positions = positions;

        public ValueEnumerator GetEnumerator() => new(_frequencies, _positions);
    }

    private ref struct ValueEnumerator(ReadOnlySpan<int> frequencies, ReadOnlySpan<int> positions)
    {
        private readonly ReadOnlySpan<int> _frequencies = frequencies;
        private readonly ReadOnlySpan<int> _positions = positions;
        private int _id = -1;
        private int _left;
        private int _at = -1;

        public int Current { get; private set; }

        public bool MoveNext()
        {
            while (_left == 0)
            {
                if (++_id >= _frequencies.Length)
                    return false;
                _left = _frequencies[_id];
                if (_left < 0)
                    throw new ArgumentOutOfRangeException(nameof(frequencies), "A frequency is negative.");
                if (_left > 0)
                {
                    _left--;
                    _at++;
                    Current = _positions[_at];
                    return true;
                }
            }
            _left--;
            _at++;
            var distance = _positions[_at] - _positions[_at - 1];
            if (distance < 0)
                throw new ArgumentException("An entry's positions must ascend.", nameof(positions));
            Current = distance;
            return true;
        }
    }
}
