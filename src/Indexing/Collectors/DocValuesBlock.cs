namespace Folio.Indexing.Collectors;

/// <summary>
/// The values of one field for a batch of entries, as an engine reads them (<see cref="IDocValues.Read"/>) and
/// a collector walks them, in one buffer reused batch after batch, so neither allocates per entry. Each
/// value is its kind's byte and, unless null, the varint length and the bytes of <see cref="DocValue.Bytes"/>;
/// an entry's values follow one another, and an entry without the field has none.
/// </summary>
public sealed class DocValuesBlock
{
    private byte[] _bytes = new byte[4096];
    private int[] _ends = new int[256];
    private int _length;

    /// <summary>How many entries the block holds.</summary>
    public int Count { get; private set; }

    /// <summary>The values of the <paramref name="entry"/>-th entry read.</summary>
    public DocValueList this[int entry]
    {
        get
        {
            ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)entry, (uint)Count, nameof(entry));
            var start = entry == 0 ? 0 : _ends[entry - 1];
            return new DocValueList(_bytes.AsSpan(start, _ends[entry] - start));
        }
    }

    /// <summary>Empties the block for the next batch.</summary>
    public void Clear()
    {
        _length = 0;
        Count = 0;
    }

    /// <summary>Appends an entry whose values are already encoded as a block holds them (Folio's engine stores them so).</summary>
    public void AddEntry(ReadOnlySpan<byte> encoded)
    {
        Reserve(encoded.Length);
        encoded.CopyTo(_bytes.AsSpan(_length));
        _length += encoded.Length;
        EndEntry();
    }

    /// <summary>Appends a value to the entry being read; <see cref="EndEntry"/> ends the entry.</summary>
    public void AddValue(DocValueKind kind, ReadOnlySpan<byte> bytes)
    {
        if (kind == DocValueKind.Null)
        {
            Reserve(1);
            _bytes[_length++] = (byte)kind;
            return;
        }
        Reserve(1 + 5 + bytes.Length);
        _bytes[_length++] = (byte)kind;
        var length = (uint)bytes.Length;
        while (length >= 0x80)
        {
            _bytes[_length++] = (byte)(length | 0x80);
            length >>= 7;
        }
        _bytes[_length++] = (byte)length;
        bytes.CopyTo(_bytes.AsSpan(_length));
        _length += bytes.Length;
    }

    /// <summary>Ends the entry being read: the values added since the last entry are its values (none: it lacks the field).</summary>
    public void EndEntry()
    {
        if (Count == _ends.Length)
            Array.Resize(ref _ends, _ends.Length * 2);
        _ends[Count++] = _length;
    }

    private void Reserve(int bytes)
    {
        if (_bytes.Length - _length < bytes)
            Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, _length + bytes));
    }
}
