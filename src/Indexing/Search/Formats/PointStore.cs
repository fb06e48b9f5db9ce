using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A numeric field's values as points (value, entry id), sorted and packed into blocks of at most
/// <see cref="MaxBlockBytes"/>, one tree entry per block (<see cref="PointBlock"/>). Equality, ranges,
/// prefixes and wildcards over the field walk the blocks in order. A term per distinct value with a posting
/// list of its own took about 36 bytes per unique timestamp (docs/benchmarks.md), and a batch of random
/// values rewrote most pages of that tree; a block holds a timestamp in about 3.5 bytes and a batch rewrites
/// each block it changes once.
/// </summary>
/// <remarks>
/// A batch applies its changes in point order: each goes to the last block starting at or before it (or the
/// first block), and all changes below the next block's start are merged into that block together. A block
/// that grows past <see cref="MaxBlockBytes"/> is cut into blocks of about <see cref="PieceBytes"/> or less, leaving
/// room for the points later batches add; one that lost points and is left smaller than <see cref="MinBlockBytes"/>
/// takes in the blocks after it, and an emptied block is deleted.
/// </remarks>
internal sealed class PointStore(PointBlocks blocks, StoreBuffers? buffers = null, int pieceBytes = PointStore.PieceBytes, int maxBlockBytes = PointStore.MaxBlockBytes)
{
    /// <summary>
    /// The largest block value, about four pages of an overflow run: past it a block is cut in two pieces of about
    /// <see cref="PieceBytes"/>, or more when one batch grew it past twice that (it stays a quarter page
    /// short of twice that, so a batch's few points do not make it three). Blocks kept in leaves (at most a
    /// quarter page each) grew wherever random values fell, and the leaves split in halves: 4.1 MB of timestamp
    /// blocks took 6.2 MB of pages at 1M benchmark records. A block on pages of its own fills nearly two pages
    /// when cut and nearly four when cut again (docs/benchmarks.md).
    /// </summary>
    public const int MaxBlockBytes = 2 * PieceBytes - StorageLimits.PageSize / 4;

    /// <summary>
    /// The most bytes a piece of a cut block is planned at: a piece is within a point of its share and is coded
    /// no longer than planned, so it fits two pages of an overflow run.
    /// </summary>
    public const int PieceBytes = 2 * StorageLimits.PageSize - StorageLimits.OverflowHeaderSize - PointBlock.MaxPointBytes - PointBlock.MaxHeaderBytes;

    /// <summary>Below this size a block that lost points takes in the next block.</summary>
    public const int MinBlockBytes = MaxBlockBytes / 8;

    // Below this size a block that lost points takes in the next: an eighth of the largest, as MinBlockBytes is for main blocks.
    private readonly int _minBlockBytes = maxBlockBytes / 8;

    // The most blocks one merge takes in, which bounds the key buffer.
    private const int MaxMergedBlocks = 8;

    private readonly byte[] _key = new byte[PointBlocks.MaxKeySize];
    // The keys of the blocks one step of Apply merges: the block a change falls in and those a small result takes in.
    private readonly byte[] _blockKeys = new byte[MaxMergedBlocks * PointBlocks.MaxKeySize];
    // Borrowed from the batch (StoreBuffers) and given back grown at the end of Apply, so the next field starts from them.
    private readonly StoreBuffers _buffers = buffers ?? new StoreBuffers();
    private byte[] _encoded = null!;
    private Point[] _stored = null!;
    private Point[] _merged = null!;
    private TreeCursor? _cursor;

    /// <summary>
    /// Takes <paramref name="removals"/> out and puts <paramref name="additions"/> in; both sorted and
    /// without repeats. A removal of a point the store does not hold changes nothing.
    /// </summary>
    public void Apply(ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        _encoded = _buffers.EncodedPoints;
        _stored = _buffers.StoredPoints;
        _merged = _buffers.MergedPoints;
        try
        {
            ApplyChanges(additions, removals);
        }
        finally
        {
            _buffers.EncodedPoints = _encoded;
            _buffers.StoredPoints = _stored;
            _buffers.MergedPoints = _merged;
        }
    }

    /// <summary>The bytes a point block may take encoded, its last point and header included.</summary>
    internal const int EncodedBlockBytes = MaxBlockBytes + PointBlock.MaxPointBytes + PointBlock.MaxHeaderBytes;

    private void ApplyChanges(ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        var cursor = _cursor ??= blocks.Tree.CreateCursor();
        var keySize = blocks.KeySize;
        int a = 0, r = 0;
        while (a < additions.Length || r < removals.Length)
        {
            var next = r == removals.Length || (a < additions.Length && additions[a].IsBefore(removals[r])) ? additions[a] : removals[r];
            var found = blocks.SeekBlockOf(cursor, next, _key);
            var merged = 0;
            var merging = 0;
            var changed = !found;
            var shrank = false;
            Point? upper = null;
            do
            {
                var stored = 0;
                if (found)
                {
                    cursor.Key.CopyTo(_blockKeys.AsSpan(merging * keySize));
                    merging++;
                    stored = PointBlock.Decode(blocks.PointKey(cursor.Key), cursor.Value, ref _stored);
                    upper = blocks.MoveNext(cursor) ? blocks.ReadKey(cursor.Key) : null;
                }
                var addedEnd = Below(additions, a, upper);
                var removedEnd = Below(removals, r, upper);
                var before = merged;
                merged = Merge(merged, _stored.AsSpan(0, stored), additions[a..addedEnd], removals[r..removedEnd]);
                // Without additions, the merge can only have removed points: the same count means none of the removals were stored.
                changed |= addedEnd != a || merged - before != stored;
                shrank |= merged - before < stored;
                a = addedEnd;
                r = removedEnd;
            }
            // A block that lost points and is left small takes in the blocks after it, so deletes do not leave a trail
            // of nearly empty blocks.
            while (shrank && upper is not null && merging < MaxMergedBlocks && IsSmall(_merged.AsSpan(0, merged)));
            if (!changed)
                continue;
            for (var i = 0; i < merging; i++)
            {
                var blockKey = _blockKeys.AsSpan(i * keySize, keySize);
                // Writing a block under the first one's key replaces it.
                if (i > 0 || merged == 0 || _merged[0] != blocks.ReadKey(blockKey))
                    blocks.Tree.Delete(blockKey);
            }
            Write(_merged.AsSpan(0, merged));
        }
    }

    /// <summary>Whether points encoded as one block would take less than this store's smallest block (<see cref="MinBlockBytes"/> for main blocks).</summary>
    private bool IsSmall(ReadOnlySpan<Point> points) => PointBlock.EncodedLength(points) < _minBlockBytes;

    /// <summary>The end of the changes from <paramref name="start"/> that order before <paramref name="upper"/> (all, without one).</summary>
    private static int Below(ReadOnlySpan<Point> changes, int start, Point? upper)
    {
        if (upper is not { } bound)
            return changes.Length;
        var end = start;
        while (end < changes.Length && changes[end].IsBefore(bound))
            end++;
        return end;
    }

    /// <summary>
    /// Appends the stored points with the additions and without the removals to the first <paramref name="count"/>
    /// points of <see cref="_merged"/>; returns the new count.
    /// </summary>
    private int Merge(int count, ReadOnlySpan<Point> stored, ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        if (_merged.Length < count + stored.Length + additions.Length)
            Array.Resize(ref _merged, Math.Max(count + stored.Length + additions.Length, _merged.Length * 2));
        int s = 0, a = 0, r = 0;
        while (s < stored.Length || a < additions.Length)
        {
            Point point;
            if (a == additions.Length || (s < stored.Length && !additions[a].IsBefore(stored[s])))
            {
                point = stored[s++];
                if (a < additions.Length && additions[a] == point)
                    a++;
            }
            else
            {
                point = additions[a++];
            }
            while (r < removals.Length && removals[r].IsBefore(point))
                r++;
            if (r < removals.Length && removals[r] == point)
            {
                r++;
                continue;
            }
            _merged[count++] = point;
        }
        return count;
    }

    /// <summary>Stores <paramref name="points"/> as one block when they fit, else as blocks of about <see cref="PieceBytes"/> or less, each within two pages.</summary>
    private void Write(ReadOnlySpan<Point> points)
    {
        if (points.IsEmpty)
            return;
        var coding = PointBlock.CodingOf(points);
        var size = PointBlock.EncodedLength(points, coding);
        if (size <= maxBlockBytes)
        {
            Put(points, coding, size);
            return;
        }
        // Cut into pieces of equal bits (each within a point of total / pieces), so no piece is a sliver.
        long total = 0;
        for (var i = 1; i < points.Length; i++)
            total += PointBlock.PointBits(points[i - 1], points[i], coding);
        var pieces = (size + pieceBytes - 1) / pieceBytes;
        var start = 0;
        long bits = 0;
        var piece = 1;
        for (var i = 1; i < points.Length; i++)
        {
            bits += PointBlock.PointBits(points[i - 1], points[i], coding);
            if (piece < pieces && bits * pieces >= piece * total)
            {
                PutPiece(points[start..i], coding);
                start = i;
                piece++;
            }
        }
        PutPiece(points[start..], coding);
    }

    /// <summary>
    /// Stores a piece of a block coded with <paramref name="whole"/>: with its own coding when that is shorter,
    /// else with the whole's, whose length is the one the cut planned (its own is chosen from the mean increase
    /// and may come out longer).
    /// </summary>
    private void PutPiece(ReadOnlySpan<Point> points, PointBlock.Coding whole)
    {
        var own = PointBlock.CodingOf(points);
        var ownLength = PointBlock.EncodedLength(points, own);
        var wholeLength = PointBlock.EncodedLength(points, whole);
        if (ownLength <= wholeLength)
            Put(points, own, ownLength);
        else
            Put(points, whole, wholeLength);
    }

    private void Put(ReadOnlySpan<Point> points, PointBlock.Coding coding, int length)
    {
        blocks.WriteKey(_key, points[0]);
        if (_encoded.Length < length)
            _encoded = new byte[length];
        if (PointBlock.Encode(points, coding, _encoded) != length)
            throw new InvalidOperationException("A point block's length was planned wrong.");
        blocks.Tree.Put(_key.AsSpan(0, blocks.KeySize), _encoded.AsSpan(0, length));
    }
}
