using System.Buffers.Binary;

namespace Folio.Indexing.Search;

/// <summary>
/// Writes bits little-endian (the first bit in the lowest bit of the first byte) into a span, eight bytes at a
/// time; <see cref="Finish"/> writes the bytes of the last partial word. The span must hold every byte written.
/// </summary>
internal ref struct BitSpanWriter(Span<byte> destination)
{
    private readonly Span<byte> _destination = destination;
    private ulong _buffer;
    private int _bits;
    private int _position;

    /// <summary>Writes the low <paramref name="count"/> bits (0 to 64) of <paramref name="value"/>.</summary>
    public void Write(ulong value, int count)
    {
        if (count == 0)
            return;
        if (count < 64)
            value &= (1UL << count) - 1;
        var free = 64 - _bits;
        if (count < free)
        {
            _buffer |= value << _bits;
            _bits += count;
            return;
        }
        _buffer |= value << _bits;
        BinaryPrimitives.WriteUInt64LittleEndian(_destination.Slice(_position, 8), _buffer);
        _position += 8;
        _buffer = free == 64 ? 0 : value >> free;
        _bits = count - free;
    }

    /// <summary>Writes <paramref name="count"/> (0 to 63) one bits.</summary>
    public void WriteOnes(int count) => Write((1UL << count) - 1, count);

    /// <summary>Writes the bits still buffered and returns the number of bytes written in all.</summary>
    public int Finish()
    {
        for (; _bits > 0; _bits -= 8)
        {
            _destination[_position++] = (byte)_buffer;
            _buffer >>= 8;
        }
        _bits = 0;
        return _position;
    }
}
