using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A numeric field's recent points, kept out of its main blocks (<see cref="SearchIndex.PointsTree"/>) in runs
/// (<see cref="SearchIndex.PointRunsTree"/>) until there are enough of them to merge in. A run holds the points a
/// batch added, as sorted blocks like the main ones (<see cref="PointBlocks"/>) under the batch's first entry id as
/// an 8-byte big-endian prefix. Entry ids only grow, so the main blocks hold every point with an id below the first
/// run's, and each run every point with an id from its own up to the next run's: a point's id says where it is.
/// </summary>
/// <remarks>
/// A batch of random values lands in every main block, so each batch rewrote a numeric field's whole point tree: at
/// 1M benchmark records, in batches of 10,000, two fields' 275 blocks (7 MB) a commit, 41% of the bytes the load
/// journaled (docs/benchmarks.md). A run costs its own points; the main blocks are rewritten once
/// <see cref="MaxRuns"/> runs wait, or once the runs hold a <see cref="MergeShare"/>-th as many points as the main
/// blocks, so a point is rewritten a bounded number of times while the field is small too. A query reads the main
/// blocks and each run; the runs' ids follow the main blocks' and each other's, so an equality's ids come in order
/// by reading them one after another.
/// </remarks>
internal static class PointRuns
{
    /// <summary>The bytes of a run's prefix: the first entry id of the batch that wrote it.</summary>
    public const int PrefixSize = 8;

    /// <summary>The most runs a field keeps: a batch that would add one more merges them all into the main blocks.</summary>
    public const int MaxRuns = 8;

    /// <summary>The runs are merged in once they and a batch's points reach this share of the main blocks' points (1 / N).</summary>
    public const int MergeShare = 4;

    /// <summary>
    /// The most bytes a run's block takes (it is cut in pieces of half that past it), a few to a leaf: a query seeks
    /// each run and decodes its block from the start, and in main blocks' sizes (about 4,500 timestamps) the eight
    /// runs of a 1M benchmark index took a range's p50 from 167 to 278 µs (docs/benchmarks.md).
    /// </summary>
    public const int MaxBlockBytes = 2 * PieceBytes;

    /// <summary>The bytes a piece of a cut run block is planned at.</summary>
    public const int PieceBytes = 768;

    /// <summary>
    /// Applies a batch's changes to a field's points: <paramref name="additions"/> (ids at or above
    /// <paramref name="firstIdOfBatch"/>, above every point stored) become a run, or everything is merged into
    /// <paramref name="main"/>; <paramref name="removals"/> are taken from where their ids say. Both sorted, without repeats.
    /// </summary>
    public static void Apply(Tree main, Tree runs, long firstIdOfBatch, ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals, StoreBuffers buffers)
    {
        foreach (var point in additions)
        {
            if (point.Id < firstIdOfBatch)
                throw new InvalidOperationException($"A point of entry {point.Id} is added in a batch whose entries start at {firstIdOfBatch}.");
        }
        var starts = Starts(runs);
        if (starts.Count > 0 && starts[^1] >= firstIdOfBatch)
            throw new Folio.Storage.CorruptionException($"A run of points starts at entry {starts[^1]}, not below the batch's first entry {firstIdOfBatch}.");
        var mainStore = new PointStore(PointBlocks.Whole(main), buffers);
        if (additions.Length > 0 && (starts.Count >= MaxRuns || (PointsOf(runs, starts) + additions.Length) * MergeShare >= CountPoints(PointBlocks.Whole(main))))
        {
            MergeAll(mainStore, runs, starts, additions, removals);
            return;
        }
        if (starts.Count == 0)
        {
            mainStore.Apply([], removals);
        }
        else
        {
            // Removals are sorted by point; each goes to the blocks its id falls in.
            var routed = new List<Point>[starts.Count + 1];
            foreach (var point in removals)
            {
                var run = RunOf(starts, point.Id);
                (routed[run + 1] ??= []).Add(point);
            }
            if (routed[0] is { } fromMain)
                mainStore.Apply([], fromMain.ToArray());
            for (var run = 0; run < starts.Count; run++)
            {
                if (routed[run + 1] is { } fromRun)
                    RunStore(runs, starts[run], buffers).Apply([], fromRun.ToArray());
            }
        }
        if (additions.Length > 0)
            RunStore(runs, firstIdOfBatch, buffers).Apply(additions, []);
    }

    /// <summary>The first entry ids of a field's runs, in order.</summary>
    public static List<long> Starts(Tree? runs)
    {
        var starts = new List<long>();
        if (runs is null || runs.Count == 0)
            return starts;
        var cursor = runs.CreateCursor();
        Span<byte> next = stackalloc byte[PrefixSize];
        var more = cursor.First();
        while (more)
        {
            var key = cursor.Key;
            if (key.Length != PointBlocks.MaxKeySize)
                throw new Folio.Storage.CorruptionException($"A run of points has a block key of {key.Length} bytes instead of {PointBlocks.MaxKeySize}.");
            var start = BinaryPrimitives.ReadInt64BigEndian(key);
            if (start < 0)
                throw new Folio.Storage.CorruptionException($"A run of points starts at entry {start}.");
            starts.Add(start);
            if (start == long.MaxValue)
                break;
            BinaryPrimitives.WriteInt64BigEndian(next, start + 1);
            more = cursor.Seek(next);
        }
        return starts;
    }

    private static PointStore RunStore(Tree runs, long start, StoreBuffers buffers) => new(Run(runs, start), buffers, PieceBytes, MaxBlockBytes);

    /// <summary>The blocks of the run starting at entry <paramref name="start"/>.</summary>
    public static PointBlocks Run(Tree runs, long start) => new(runs, Prefix(start));

    /// <summary>The run holding entry <paramref name="id"/>'s points (its index in <paramref name="starts"/>), or -1 for the main blocks.</summary>
    private static int RunOf(List<long> starts, long id)
    {
        int low = 0, high = starts.Count - 1, found = -1;
        while (low <= high)
        {
            var middle = (low + high) >>> 1;
            if (starts[middle] <= id)
                (found, low) = (middle, middle + 1);
            else
                high = middle - 1;
        }
        return found;
    }

    private static byte[] Prefix(long start)
    {
        var prefix = new byte[PrefixSize];
        BinaryPrimitives.WriteInt64BigEndian(prefix, start);
        return prefix;
    }

    /// <summary>Puts the runs' points and the batch's additions into the main blocks, without the removals, and deletes the runs.</summary>
    private static void MergeAll(PointStore main, Tree runs, List<long> starts, ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
        if (starts.Count == 0)
        {
            main.Apply(additions, removals);
            return;
        }
        var points = new List<Point>(additions.Length);
        var cursor = runs.CreateCursor();
        foreach (var start in starts)
        {
            var run = Run(runs, start);
            for (var more = run.First(cursor); more; more = run.MoveNext(cursor))
            {
                var block = new PointBlock.Reader(run.PointKey(cursor.Key), cursor.Value);
                while (block.MoveNext())
                    points.Add(block.Current);
            }
        }
        foreach (var point in additions)
            points.Add(point);
        var merged = points.ToArray();
        Array.Sort(merged);
        main.Apply(merged, removals);
        Span<byte> key = stackalloc byte[PointBlocks.MaxKeySize];
        while (cursor.First())
        {
            // The cursor's key lies in the page the delete changes.
            cursor.Key.CopyTo(key);
            runs.Delete(key[..cursor.Key.Length]);
        }
    }

    /// <summary>How many points the runs hold, from their blocks' counts.</summary>
    private static long PointsOf(Tree runs, List<long> starts)
    {
        long count = 0;
        foreach (var start in starts)
            count += CountPoints(Run(runs, start));
        return count;
    }

    /// <summary>How many points a set of blocks holds, from each block's count (its value's first varint, and its key's point).</summary>
    public static long CountPoints(PointBlocks blocks)
    {
        long count = 0;
        var cursor = blocks.Tree.CreateCursor();
        for (var more = blocks.First(cursor); more; more = blocks.MoveNext(cursor))
        {
            var position = 0;
            count += 1 + (long)Varint.Read(cursor.Value, ref position);
        }
        return count;
    }
}
