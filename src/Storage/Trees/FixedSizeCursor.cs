namespace Folio.Storage.Trees;

/// <summary>Walks a <see cref="FixedSizeTree"/> in key order.</summary>
public sealed class FixedSizeCursor
{
    private readonly TreeCursor _cursor;
    private readonly byte[] _key = new byte[sizeof(long)];

    internal FixedSizeCursor(TreeCursor cursor) => _cursor = cursor;

    /// <summary>The current key.</summary>
    public long Key => FixedSizeTree.Decode(_cursor.Key);

    /// <summary>The current value.</summary>
    public ReadOnlySpan<byte> Value => _cursor.Value;

    /// <summary>Moves to the smallest key.</summary>
    public bool First() => _cursor.First();

    /// <summary>Moves to the largest key.</summary>
    public bool Last() => _cursor.Last();

    /// <summary>Moves to the first key not less than <paramref name="key"/>.</summary>
    public bool Seek(long key) => _cursor.Seek(FixedSizeTree.Encode(key, _key));

    /// <summary>Moves to the next key.</summary>
    public bool MoveNext() => _cursor.MoveNext();

    /// <summary>Moves to the previous key.</summary>
    public bool MovePrevious() => _cursor.MovePrevious();
}
