using System.Numerics;
using Folio.Storage;

namespace Folio.Indexing.Search;

/// <summary>
/// The positions of one posting list's entries in a full-text field (an inline list's, or one chunk's), kept under the
/// list's key in the field's positions tree (<see cref="SearchIndex.PositionsTree"/>): for each id of the list in its
/// order, as many positions as its frequency, the first as it is and each next as its distance from the one before
/// (positions ascend, so distances are never negative). A byte gives a width W (0 to <see cref="MaxWidth"/>); then each
/// value in a little-endian bit stream: W bits when it is below 2^W − 1, otherwise W one bits followed by the Elias gamma
/// code of its excess over 2^W − 1 plus one (the excess's bit length less one in unary, then its bits below the top one).
/// </summary>
/// <remarks>
/// Lucene keeps positions per term the same way (<c>.pos</c>), and so the term is paid once per list instead of once a
/// token: an entry record that listed its tokens as term ids in order took about 13 bits a token at 1M benchmark
/// records, where a position within a short text takes about 5. W is chosen per list as the width with the fewest
/// bits, from a count of the values by bit length: a long text's far positions then cost an escape each instead of
/// widening every value of the list.
/// </remarks>
internal static class PositionLists
{
    /// <summary>The widest a list's values are written without an escape.</summary>
    public const int MaxWidth = 31;

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
        // The count is exact but for escapes, where it is an upper bound; the writer stores whole 8-byte words, so the room
        // is rounded up to one.
        var room = 1 + checked((int)((best + 63) / 64 * 8));
        if (destination.Length < room)
            destination = new byte[Math.Max(room, destination.Length * 2)];
        destination[0] = (byte)width;
        var writer = new BitSpanWriter(destination.AsSpan(1, room - 1));
        foreach (var value in Values(frequencies, positions))
            WriteValue(ref writer, value, width);
        return 1 + writer.Finish();
    }

    /// <summary>
    /// Decodes <paramref name="encoded"/>, the positions of a list whose ids have <paramref name="frequencies"/>, into
    /// <paramref name="positions"/> (as long as the frequencies' sum).
    /// </summary>
    public static void Decode(ReadOnlySpan<byte> encoded, ReadOnlySpan<int> frequencies, Span<int> positions)
    {
        long bits = 0;
        DecodeNext(encoded, ref bits, frequencies, positions);
        // What follows the last value may only pad its byte.
        if ((encoded.Length - 1) * 8L - bits >= 8)
            throw new CorruptionException("A posting list's positions go on past its entries.");
    }

    /// <summary>
    /// Decodes the positions of the next ids of a list, whose frequencies <paramref name="frequencies"/> are, from
    /// <paramref name="bits"/> into the list's bit stream (0 at its first id), which moves past them: a reader that needs
    /// one entry's positions decodes up to it and goes on from there for a later entry.
    /// </summary>
    public static void DecodeNext(ReadOnlySpan<byte> encoded, ref long bits, ReadOnlySpan<int> frequencies, Span<int> positions)
    {
        if (encoded.IsEmpty)
            throw new CorruptionException("A posting list's positions are empty.");
        var width = encoded[0];
        if (width > MaxWidth)
            throw new CorruptionException($"A posting list's positions are {width} bits wide.");
        var reader = new BitSpanReader(encoded[1..]);
        reader.Skip(checked((int)bits));
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
