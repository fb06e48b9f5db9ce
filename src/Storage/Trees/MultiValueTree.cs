namespace Folio.Storage.Trees;

/// <summary>
/// One key to many sorted values, the shape of a posting list or a secondary index. Each pair is one
/// entry of a regular tree under a composite key: the key with its zero bytes escaped (0x00 0xFF)
/// and ended by 0x00 0x00, then the value. That encoding sorts by key, then by value, so all values
/// of a key are one contiguous, ordered range. Key and value together (after escaping) must fit in
/// <see cref="StorageLimits.MaxKeySize"/>.
/// </summary>
public sealed class MultiValueTree
{
    private readonly Tree _tree;
    private readonly byte[] _buffer = new byte[StorageLimits.MaxKeySize * 2 + 2];

    internal MultiValueTree(Tree tree) => _tree = tree;

    /// <summary>The tree's name.</summary>
    public string Name => _tree.Name;

    /// <summary>The number of (key, value) pairs.</summary>
    public long Count => _tree.Count;

    /// <summary>Adds <paramref name="value"/> to <paramref name="key"/>'s values; false if it was there.</summary>
    public bool Add(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var composite = Compose(key, value);
        if (_tree.Contains(composite))
            return false;
        _tree.Put(composite, default);
        return true;
    }

    /// <summary>Removes one value of a key; false if it was not there.</summary>
    public bool Remove(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _tree.Delete(Compose(key, value));

    /// <summary>Whether <paramref name="key"/> has <paramref name="value"/>.</summary>
    public bool Contains(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _tree.Contains(Compose(key, value));

    /// <summary>Removes every value of <paramref name="key"/>; returns how many there were.</summary>
    public int RemoveAll(ReadOnlySpan<byte> key)
    {
        var prefix = EncodePrefix(key).ToArray();
        var removed = 0;
        var cursor = _tree.CreateCursor();
        while (cursor.Seek(prefix) && cursor.Key.StartsWith(prefix))
        {
            _tree.Delete(cursor.Key.ToArray());
            removed++;
        }
        return removed;
    }

    /// <summary>How many values <paramref name="key"/> has (walks them).</summary>
    public long CountValues(ReadOnlySpan<byte> key)
    {
        var cursor = OpenValues(key);
        long count = 0;
        while (cursor.MoveNext())
            count++;
        return count;
    }

    /// <summary>A cursor over the values of <paramref name="key"/> in order, positioned before the first.</summary>
    public MultiValueCursor OpenValues(ReadOnlySpan<byte> key)
    {
        var prefix = EncodePrefix(key).ToArray();
        return new MultiValueCursor(_tree.CreateCursor(), prefix);
    }

    private Span<byte> EncodePrefix(ReadOnlySpan<byte> key)
    {
        if (key.Length == 0)
            throw new InvalidKeyException("A key must not be empty.");
        if (key.Length > StorageLimits.MaxKeySize)
            throw new InvalidKeyException($"A key of {key.Length} bytes exceeds the limit of {StorageLimits.MaxKeySize} bytes.");
        var length = 0;
        foreach (var b in key)
        {
            _buffer[length++] = b;
            if (b == 0)
                _buffer[length++] = 0xFF;
        }
        _buffer[length++] = 0;
        _buffer[length++] = 0;
        return _buffer.AsSpan(0, length);
    }

    private ReadOnlySpan<byte> Compose(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var prefix = EncodePrefix(key);
        if (prefix.Length + value.Length > StorageLimits.MaxKeySize)
            throw new InvalidKeyException($"A key and value of {prefix.Length + value.Length} bytes together exceed the multi-value limit of {StorageLimits.MaxKeySize} bytes.");
        value.CopyTo(_buffer.AsSpan(prefix.Length));
        return _buffer.AsSpan(0, prefix.Length + value.Length);
    }
}
