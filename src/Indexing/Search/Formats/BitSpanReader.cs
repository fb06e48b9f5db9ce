using System.Buffers.Binary;
using System.Numerics;
using Folio.Storage;

namespace Folio.Indexing.Search;

/// <summary>
/// Reads the bits <see cref="BitSpanWriter"/> wrote. Reading past the end is corruption, not a wrong value.
/// </summary>
internal ref struct BitSpanReader(ReadOnlySpan<byte> source)
{
    private readonly ReadOnlySpan<byte> _source = source;
    private readonly long _length = (long)source.Length * 8;
    private long _position;

    /// <summary>How many bits were read (or skipped) so far.</summary>
    public readonly long BitsRead => _position;

    /// <summary>Whether no whole byte is left: the bits after the last value only pad its byte.</summary>
    public readonly bool AtEnd => _length - _position < 8;

    /// <summary>Reads <paramref name="count"/> bits (0 to 64).</summary>
    public ulong Read(int count)
    {
        if (count == 0)
            return 0;
        if (_length - _position < count)
            throw new CorruptionException("A bit stream ends before its values do.");
        ulong value;
        if (count <= 56)
        {
            value = Peek(count);
        }
        else
        {
            var low = Peek(32);
            _position += 32;
            value = low | (Peek(count - 32) << 32);
            _position -= 32;
        }
        _position += count;
        return value;
    }

    /// <summary>
    /// Reads ones up to <paramref name="limit"/> (at most 55) of them: fewer are ended by a zero, which is read
    /// too, and <paramref name="limit"/> ones are read without one. Returns how many ones there were.
    /// </summary>
    public int ReadOnes(int limit)
    {
        var available = (int)Math.Min(limit + 1, _length - _position);
        var window = Peek(available);
        var ones = BitOperations.TrailingZeroCount(~window);
        if (ones >= limit)
        {
            _position += limit;
            return limit;
        }
        if (ones >= available)
            throw new CorruptionException("A bit stream ends before its values do.");
        _position += ones + 1;
        return ones;
    }

    /// <summary>
    /// The next bits without moving past them: at least 56 of them valid, as many as are left near the end and
    /// zeros past it (which <see cref="Skip"/> then refuses).
    /// </summary>
    public readonly ulong Window()
    {
        var index = (int)(_position >> 3);
        if (index + 8 <= _source.Length)
            return BinaryPrimitives.ReadUInt64LittleEndian(_source[index..]) >> (int)(_position & 7);
        return Peek((int)Math.Min(56, _length - _position));
    }

    /// <summary>Moves past <paramref name="count"/> bits read from a <see cref="Window"/>.</summary>
    public void Skip(int count)
    {
        if (_length - _position < count)
            throw new CorruptionException("A bit stream ends before its values do.");
        _position += count;
    }

    // The next count (at most 56) bits, which must be there, without moving past them.
    private readonly ulong Peek(int count)
    {
        if (count == 0)
            return 0;
        var index = (int)(_position >> 3);
        var shift = (int)(_position & 7);
        ulong word;
        if (index + 8 <= _source.Length)
        {
            word = BinaryPrimitives.ReadUInt64LittleEndian(_source[index..]);
        }
        else
        {
            word = 0;
            for (var i = _source.Length - 1; i >= index; i--)
                word = (word << 8) | _source[i];
        }
        return (word >> shift) & ((1UL << count) - 1);
    }
}
