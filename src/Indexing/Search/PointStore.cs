using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A numeric field's values as points (value, entry id), sorted and packed into blocks of at most
/// <see cref="MaxBlockBytes"/>, one tree entry per block (<see cref="PointBlock"/>). Equality, ranges,
/// prefixes and wildcards over the field walk the blocks in order. A term per distinct value with a posting
/// list of its own took about 36 bytes per unique timestamp (docs/benchmarks.md), and a batch of random
/// values rewrote most pages of that tree; a block holds a point in about six bytes and a batch rewrites
/// each block it changes once.
/// </summary>
/// <remarks>
/// A batch applies its changes in point order: each goes to the last block starting at or before it (or the
/// first block), and all changes below the next block's start are merged into that block together. A block
/// that grows past <see cref="MaxBlockBytes"/> is cut into blocks of about <see cref="SplitBytes"/>, leaving
/// room for the points later batches add; an emptied block is deleted.
/// </remarks>
internal sealed class PointStore(Tree tree)
{
    /// <summary>
    /// The largest block value. With its 16-byte key it stays below a quarter of a page, the most a tree keeps
    /// in a leaf rather than on overflow pages of its own.
    /// </summary>
    public const int MaxBlockBytes = 1_900;

    /// <summary>The size the blocks of a block cut in pieces start at.</summary>
    public const int SplitBytes = MaxBlockBytes / 2;

    private readonly byte[] _key = new byte[PointBlock.KeySize];
    private readonly byte[] _blockKey = new byte[PointBlock.KeySize];
    private readonly byte[] _encoded = new byte[MaxBlockBytes + PointBlock.MaxPointBytes + PointBlock.MaxCountBytes];
    private Point[] _stored = new Point[256];
    private Point[] _merged = new Point[256];
    private TreeCursor? _cursor;

    /// <summary>
    /// Takes <paramref name="removals"/> out and puts <paramref name="additions"/> in; both sorted and
    /// without repeats. A removal of a point the store does not hold changes nothing.
    /// </summary>
    public void Apply(ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        var cursor = _cursor ??= tree.CreateCursor();
        int a = 0, r = 0;
        while (a < additions.Length || r < removals.Length)
        {
            var next = r == removals.Length || (a < additions.Length && additions[a].IsBefore(removals[r])) ? additions[a] : removals[r];
            PointBlock.WriteKey(_key, next);
            var found = cursor.SeekLastAtOrBefore(_key) || cursor.First();
            var stored = 0;
            Point? upper = null;
            if (found)
            {
                cursor.Key.CopyTo(_blockKey);
                stored = PointBlock.Decode(cursor.Key, cursor.Value, ref _stored);
                if (cursor.MoveNext())
                    upper = PointBlock.ReadKey(cursor.Key);
            }
            var addedEnd = Below(additions, a, upper);
            var removedEnd = Below(removals, r, upper);
            var merged = Merge(_stored.AsSpan(0, stored), additions[a..addedEnd], removals[r..removedEnd]);
            // Without additions, the merge can only have removed points: the same count means none of the removals were stored.
            var unchanged = addedEnd == a && merged == stored;
            a = addedEnd;
            r = removedEnd;
            if (unchanged)
                continue;
            if (found && (merged == 0 || _merged[0] != PointBlock.ReadKey(_blockKey)))
                tree.Delete(_blockKey);
            Write(_merged.AsSpan(0, merged));
        }
    }

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

    /// <summary>The stored points with the additions and without the removals, into <see cref="_merged"/>; returns how many.</summary>
    private int Merge(ReadOnlySpan<Point> stored, ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        if (_merged.Length < stored.Length + additions.Length)
            _merged = new Point[Math.Max(stored.Length + additions.Length, _merged.Length * 2)];
        int s = 0, a = 0, r = 0, count = 0;
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

    /// <summary>Stores <paramref name="points"/> as one block when they fit, else as blocks of about <see cref="SplitBytes"/>.</summary>
    private void Write(ReadOnlySpan<Point> points)
    {
        if (points.IsEmpty)
            return;
        var size = Varint.Length((ulong)(points.Length - 1));
        for (var i = 1; i < points.Length && size <= MaxBlockBytes; i++)
            size += PointBlock.EncodedLength(points[i - 1], points[i]);
        if (size <= MaxBlockBytes)
        {
            Put(points);
            return;
        }
        var start = 0;
        while (start < points.Length)
        {
            var end = start + 1;
            var bytes = PointBlock.MaxCountBytes;
            while (end < points.Length && bytes + PointBlock.EncodedLength(points[end - 1], points[end]) <= SplitBytes)
            {
                bytes += PointBlock.EncodedLength(points[end - 1], points[end]);
                end++;
            }
            Put(points[start..end]);
            start = end;
        }
    }

    private void Put(ReadOnlySpan<Point> points)
    {
        PointBlock.WriteKey(_key, points[0]);
        var length = PointBlock.Encode(points, _encoded);
        tree.Put(_key, _encoded.AsSpan(0, length));
    }
}
