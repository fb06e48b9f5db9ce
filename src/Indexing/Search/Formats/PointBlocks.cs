using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// One sorted set of point blocks (<see cref="PointBlock"/>) in a tree: a numeric field's main blocks, which are
/// the whole of their tree, or one run of its recent points (<see cref="PointRuns"/>), whose blocks' keys start with
/// the run's <see cref="PointRuns.PrefixSize"/>-byte prefix. A block's key is the prefix, then the block's first point.
/// </summary>
internal readonly struct PointBlocks
{
    private readonly byte[] _prefix;

    /// <summary>The blocks of <paramref name="tree"/> whose keys start with <paramref name="prefix"/> (all of them when empty).</summary>
    public PointBlocks(Tree tree, byte[] prefix)
    {
        Tree = tree;
        _prefix = prefix;
    }

    /// <summary>The blocks that are the whole of <paramref name="tree"/>.</summary>
    public static PointBlocks Whole(Tree tree) => new(tree, []);

    /// <summary>The most bytes a block key takes, in any set.</summary>
    public const int MaxKeySize = PointRuns.PrefixSize + PointBlock.KeySize;

    /// <summary>The tree holding the blocks.</summary>
    public Tree Tree { get; }

    /// <summary>The size of these blocks' keys.</summary>
    public int KeySize => _prefix.Length + PointBlock.KeySize;

    /// <summary>Writes the key of a block starting with <paramref name="point"/> into the first <see cref="KeySize"/> bytes of <paramref name="key"/>.</summary>
    public void WriteKey(Span<byte> key, Point point)
    {
        _prefix.CopyTo(key);
        PointBlock.WriteKey(key[_prefix.Length..], point);
    }

    /// <summary>The first point of the block with tree key <paramref name="key"/>.</summary>
    public Point ReadKey(ReadOnlySpan<byte> key) => PointBlock.ReadKey(PointKey(key));

    /// <summary>The part of a block's tree key that <see cref="PointBlock"/> reads: its first point.</summary>
    public ReadOnlySpan<byte> PointKey(ReadOnlySpan<byte> key) => key[_prefix.Length..];

    /// <summary>Whether these are a field's main blocks, the whole of their tree (otherwise a run's, under its prefix).</summary>
    public bool IsWhole => _prefix.Length == 0;

    /// <summary>The lowest entry id these blocks may hold: a run's start, 0 for the main blocks.</summary>
    public long FirstId => IsWhole ? 0 : BinaryPrimitives.ReadInt64BigEndian(_prefix);

    /// <summary>Whether the tree key <paramref name="key"/> is one of these blocks' (one of another run's is not; a malformed one is a corruption).</summary>
    public bool Holds(ReadOnlySpan<byte> key)
    {
        if (!key.StartsWith(_prefix))
            return false;
        if (key.Length != KeySize)
            throw new Folio.Storage.CorruptionException($"A point block key has {key.Length} bytes instead of {KeySize}.");
        return true;
    }

    /// <summary>
    /// Puts <paramref name="cursor"/> on the block that holds <paramref name="point"/> or would: the last block
    /// starting at or before it, else the first block. <paramref name="key"/> is scratch for the seek key.
    /// False when there is no block.
    /// </summary>
    public bool SeekBlockOf(TreeCursor cursor, Point point, Span<byte> key)
    {
        WriteKey(key, point);
        if (cursor.SeekLastAtOrBefore(key[..KeySize]) && Holds(cursor.Key))
            return true;
        return First(cursor);
    }

    /// <summary>Puts <paramref name="cursor"/> on the first block; false when there is none.</summary>
    public bool First(TreeCursor cursor) => IsWhole ? cursor.First() : cursor.Seek(_prefix) && Holds(cursor.Key);

    /// <summary>Moves <paramref name="cursor"/> to the next block; false past the last.</summary>
    public bool MoveNext(TreeCursor cursor) => cursor.MoveNext() && Holds(cursor.Key);
}
