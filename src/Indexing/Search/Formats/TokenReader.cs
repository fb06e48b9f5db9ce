namespace Folio.Indexing.Search;

/// <summary>Reads a <see cref="TokenStream"/> token by token.</summary>
internal ref struct TokenReader
{
    private readonly int _width;
    // Where the bit stream starts in the record.
    private readonly int _start;
    private BitSpanReader _bits;

    /// <summary>Starts reading the stream at <paramref name="position"/> of <paramref name="record"/>.</summary>
    public TokenReader(ReadOnlySpan<byte> record, int position)
    {
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
        _start = position;
        _bits = new BitSpanReader(record[position..]);
    }

    /// <summary>How many tokens are left.</summary>
    public int Remaining { get; private set; }

    /// <summary>The position of the token last read (0 before the first).</summary>
    public int Position { get; private set; }

    /// <summary>Where the stream ends, once every token was read (<see cref="Remaining"/> is 0).</summary>
    public readonly int End => _start + (int)((_bits.BitsRead + 7) >> 3);

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
            return _bits.Read(_width);
        var @class = (int)_bits.Read(TokenStream.ClassBits);
        if (@class == TokenStream.RawClass)
            return _bits.Read(_width - TokenStream.RawClass);
        var length = _width - @class;
        return (1UL << (length - 1)) | _bits.Read(length - 1);
    }

    private int ReadDistance()
    {
        // The prefix is the run of ones before the first zero, at most four.
        switch (_bits.ReadOnes(4))
        {
            case 0: return 1;
            case 1: return 2;
            case 2: return 3;
            case 3: return 0;
        }
        var length = _bits.ReadOnes(31);
        if (length > 30)
            throw new Folio.Storage.CorruptionException("An entry record holds a token distance beyond any position.");
        return (int)(((1L << length) | (long)_bits.Read(length)) + 3);
    }
}
