namespace Folio.Storage.Trees;

/// <summary>Walks the values of one key of a <see cref="MultiValueTree"/> in order.</summary>
public sealed class MultiValueCursor
{
    private readonly TreeCursor _cursor;
    private readonly byte[] _prefix;
    private readonly byte[] _seekBuffer;
    private bool _started;
    private bool _done;

    internal MultiValueCursor(TreeCursor cursor, byte[] prefix)
    {
        _cursor = cursor;
        _prefix = prefix;
        _seekBuffer = new byte[StorageLimits.MaxKeySize];
        prefix.CopyTo(_seekBuffer, 0);
    }

    /// <summary>The current value.</summary>
    public ReadOnlySpan<byte> Value => _cursor.Key[_prefix.Length..];

    /// <summary>Moves to the first (then the next) value; false when there are no more.</summary>
    public bool MoveNext()
    {
        if (_done)
            return false;
        var moved = _started ? _cursor.MoveNext() : _cursor.Seek(_prefix);
        _started = true;
        return Check(moved);
    }

    /// <summary>
    /// Moves forward up to <paramref name="count"/> values, ending where that many <see cref="MoveNext"/> calls would,
    /// and returns how many it moved over: fewer when the key's values end first. Costs one step per leaf passed.
    /// </summary>
    /// <param name="count">How many values to move over; zero or more.</param>
    /// <returns>How many values it moved over.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public int Skip(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (count == 0 || !MoveNext())
            return 0;
        var skipped = 1 + _cursor.Skip(count - 1, _prefix);
        _done = skipped < count;
        return skipped;
    }

    /// <summary>Moves to the first value not less than <paramref name="value"/>; false when there is none.</summary>
    public bool Seek(ReadOnlySpan<byte> value)
    {
        if (_prefix.Length + value.Length > _seekBuffer.Length)
            throw new InvalidKeyException("The value is longer than any stored value can be.");
        value.CopyTo(_seekBuffer.AsSpan(_prefix.Length));
        _started = true;
        _done = false;
        return Check(_cursor.Seek(_seekBuffer.AsSpan(0, _prefix.Length + value.Length)));
    }

    private bool Check(bool moved)
    {
        if (moved && _cursor.Key.StartsWith(_prefix))
            return true;
        _done = true;
        return false;
    }
}
