namespace Folio.Indexing.Search;

/// <summary>Reads a <see cref="TokenStream"/> token by token.</summary>
internal ref struct TokenReader
{
    private readonly ReadOnlySpan<byte> _record;
    private readonly int _width;
    private long _bit;

    /// <summary>Starts reading the stream at <paramref name="position"/> of <paramref name="record"/>.</summary>
    public TokenReader(ReadOnlySpan<byte> record, int position)
    {
        _record = record;
        Remaining = (int)ByteCoding.ReadVarint(record, ref position);
        if (Remaining < 0 || Remaining > record.Length * 8)
            throw new Folio.Storage.CorruptionException($"An entry record gives a field {Remaining} tokens.");
        if (Remaining > 0)
        {
            _width = record[position++];
            if (_width is < 1 or > TokenStream.MaxWidth)
                throw new Folio.Storage.CorruptionException($"An entry record gives its term ids {_width} bits.");
        }
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
        var id = (long)ReadBits(_width);
        Position += ReadDistance();
        return id;
    }

    /// <summary>Reads past every token left.</summary>
    public void SkipRest()
    {
        while (Remaining > 0)
            Next();
    }

    private int ReadDistance()
    {
        var ones = 0;
        while (ones < 4 && ReadBit() == 1)
            ones++;
        switch (ones)
        {
            case 0: return 1;
            case 1: return 2;
            case 2: return 3;
            case 3: return 0;
        }
        var length = 0;
        while (ReadBit() == 1)
        {
            if (++length > 30)
                throw new Folio.Storage.CorruptionException("An entry record holds a token distance beyond any position.");
        }
        var gamma = (1L << length) | (long)ReadBits(length);
        var distance = gamma + 3;
        if (distance > IndexBatch.MaxPosition)
            throw new Folio.Storage.CorruptionException("An entry record holds a token distance beyond any position.");
        return (int)distance;
    }

    private ulong ReadBit() => ReadBits(1);

    private ulong ReadBits(int bits)
    {
        if (bits == 0)
            return 0;
        if ((_bit + bits + 7) >> 3 > _record.Length)
            throw new Folio.Storage.CorruptionException("An entry record's token stream ends early.");
        ulong value = 0;
        var read = 0;
        while (read < bits)
        {
            var index = (int)(_bit >> 3);
            var offset = (int)(_bit & 7);
            var take = Math.Min(8 - offset, bits - read);
            value |= (ulong)((_record[index] >> offset) & ((1 << take) - 1)) << read;
            read += take;
            _bit += take;
        }
        return value;
    }
}
