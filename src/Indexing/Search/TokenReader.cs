using System.Buffers.Binary;
using System.Numerics;

namespace Folio.Indexing.Search;

/// <summary>Reads a <see cref="TokenStream"/> token by token.</summary>
internal ref struct TokenReader
{
    // A window holds at least this many bits past the read position (a 64-bit load from the byte holding it).
    private const int WindowBits = 57;

    private readonly ReadOnlySpan<byte> _record;
    private readonly int _width;
    private readonly long _endBit;
    private long _bit;

    /// <summary>Starts reading the stream at <paramref name="position"/> of <paramref name="record"/>.</summary>
    public TokenReader(ReadOnlySpan<byte> record, int position)
    {
        _record = record;
        _endBit = (long)record.Length * 8;
        var count = ByteCoding.ReadVarint(record, ref position);
        if (count > 0)
        {
            if (position >= record.Length)
                throw new Folio.Storage.CorruptionException("An entry record's token stream ends before its id width.");
            _width = record[position++];
            if (_width is < 1 or > TokenStream.MaxWidth)
                throw new Folio.Storage.CorruptionException($"An entry record gives its term ids {_width} bits.");
            // Every token takes at least its id's fewest bits and one bit of distance.
            if (count > (ulong)((record.Length - position) * 8L / TokenStream.MinTokenBits(_width)))
                throw new Folio.Storage.CorruptionException($"An entry record gives a field {count} tokens in {record.Length - position} bytes.");
        }
        Remaining = (int)count;
        _bit = (long)position * 8;
    }

    /// <summary>How many tokens are left.</summary>
    public int Remaining { get; private set; }

    /// <summary>The position of the token last read (0 before the first).</summary>
    public int Position { get; private set; }

    /// <summary>Where the stream ends, once every token was read (<see cref="Remaining"/> is 0).</summary>
    public readonly int End => (int)((_bit + 7) >> 3);

    /// <summary>Reads the next token: returns its term id and moves <see cref="Position"/> to it.</summary>
    public long Next()
    {
        if (Remaining == 0)
            throw new InvalidOperationException("The token stream has no more tokens.");
        Remaining--;
        var id = (long)ReadId();
        var distance = ReadDistance();
        if (distance > IndexBatch.MaxPosition - Position)
            throw new Folio.Storage.CorruptionException("An entry record holds a token position beyond any position.");
        Position += distance;
        return id;
    }

    /// <summary>Reads past every token left.</summary>
    public void SkipRest()
    {
        while (Remaining > 0)
            Next();
    }

    private ulong ReadId()
    {
        if (_width < TokenStream.ClassFrom)
            return ReadBits(_width);
        var @class = (int)ReadBits(TokenStream.ClassBits);
        if (@class == TokenStream.RawClass)
            return ReadBits(_width - TokenStream.RawClass);
        var length = _width - @class;
        return (1UL << (length - 1)) | ReadBits(length - 1);
    }

    private int ReadDistance()
    {
        // The prefix is the run of ones before the first zero, at most four.
        var ones = Math.Min(4, BitOperations.TrailingZeroCount(~Window()));
        Consume(ones < 4 ? ones + 1 : 4);
        switch (ones)
        {
            case 0: return 1;
            case 1: return 2;
            case 2: return 3;
            case 3: return 0;
        }
        var length = BitOperations.TrailingZeroCount(~Window());
        if (length > 30)
            throw new Folio.Storage.CorruptionException("An entry record holds a token distance beyond any position.");
        Consume(length + 1);
        return (int)(((1L << length) | (long)ReadBits(length)) + 3);
    }

    private ulong ReadBits(int bits)
    {
        if (bits > WindowBits)
        {
            var low = ReadBits(32);
            return low | (ReadBits(bits - 32) << 32);
        }
        var value = bits == 0 ? 0 : Window() & (ulong.MaxValue >> (64 - bits));
        Consume(bits);
        return value;
    }

    /// <summary>The bits from the read position on, low bit first; past the record's end they read as zero.</summary>
    private readonly ulong Window()
    {
        var index = (int)(_bit >> 3);
        var offset = (int)(_bit & 7);
        if (index + 8 <= _record.Length)
            return BinaryPrimitives.ReadUInt64LittleEndian(_record[index..]) >> offset;
        ulong window = 0;
        for (var i = index; i < _record.Length; i++)
            window |= (ulong)_record[i] << ((i - index) * 8);
        return window >> offset;
    }

    private void Consume(int bits)
    {
        _bit += bits;
        if (_bit > _endBit)
            throw new Folio.Storage.CorruptionException("An entry record's token stream ends early.");
    }
}
