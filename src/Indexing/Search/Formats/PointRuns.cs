using System.Buffers.Binary;
using Folio.Storage.Transactions;
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
/// journaled (docs/benchmarks.md). A run costs its own points; once <see cref="MaxRuns"/> runs wait, a batch merges
/// them and its own points into the main blocks, rewriting the blocks they land in, as every batch did before. A query
/// reads the main blocks and each run; the runs' ids follow the main blocks' and each other's, so an equality's ids
/// come in order by reading them one after another. The runs' tree exists only while runs wait, so an index keeps no
/// empty root page per numeric field.
/// </remarks>
internal static class PointRuns
{
    /// <summary>The bytes of a run's prefix: the first entry id of the batch that wrote it.</summary>
    public const int PrefixSize = 8;

    /// <summary>The most runs a field keeps: a batch that would add one more merges them all into the main blocks.</summary>
    public const int MaxRuns = 8;

    /// <summary>
    /// The most bytes a run's block takes (it is cut in pieces of half that past it), a few to a leaf: a query seeks
    /// each run and decodes its block from the start, and in main blocks' sizes (about 4,500 timestamps) the eight
    /// runs of a 1M benchmark index took a range's p50 from 167–170 to 274–282 µs (docs/benchmarks.md).
    /// </summary>
    public const int MaxBlockBytes = 2 * PieceBytes;

    /// <summary>The bytes a piece of a cut run block is planned at.</summary>
    public const int PieceBytes = 768;

    /// <summary>
    /// Applies a batch's changes to a field's points: <paramref name="additions"/> (ids at or above
    /// <paramref name="firstIdOfBatch"/>, above every point stored) become a run in the tree named <paramref name="runsTree"/>
    /// (created when first needed), or are merged into <paramref name="main"/> with the runs, whose tree is then deleted;
    /// <paramref name="removals"/> are taken from where their ids say. Both sorted, without repeats.
    /// </summary>
    public static void Apply(WriteTransaction transaction, Tree main, string runsTree, long firstIdOfBatch, ReadOnlySpan<Point> additions,
        ReadOnlySpan<Point> removals, StoreBuffers buffers)
    {
        foreach (var point in additions)
        {
            if (point.Id < firstIdOfBatch)
                throw new InvalidOperationException($"A point of entry {point.Id} is added in a batch whose entries start at {firstIdOfBatch}.");
        }
        var runs = transaction.OpenTree(runsTree);
        var starts = Starts(runs);
        if (starts.Count > 0 && starts[^1] >= firstIdOfBatch)
            throw new Folio.Storage.CorruptionException($"A run of points starts at entry {starts[^1]}, not below the batch's first entry {firstIdOfBatch}.");
        var mainStore = new PointStore(PointBlocks.Whole(main), buffers);
        // Into empty main blocks there is nothing to spare: the batch's points, and any runs, go in at once.
        if (additions.Length > 0 && (starts.Count >= MaxRuns || main.Count == 0))
        {
            if (runs is null)
            {
                mainStore.Apply(additions, removals);
                return;
            }
            MergeAll(mainStore, runs, starts, additions, removals);
            transaction.DeleteTree(runsTree);
            return;
        }
        if (runs is null)
        {
            mainStore.Apply([], removals);
        }
        else
        {
            RemoveWhereTheIdsSay(mainStore, runs, starts, removals, buffers);
            if (runs.Count == 0)
            {
                transaction.DeleteTree(runsTree);
                runs = null;
            }
        }
        if (additions.Length > 0)
            RunStore(runs ?? transaction.CreateTree(runsTree), firstIdOfBatch, buffers).Apply(additions, []);
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

    /// <summary>The blocks of the run starting at entry <paramref name="start"/>.</summary>
    public static PointBlocks Run(Tree runs, long start)
    {
        var prefix = new byte[PrefixSize];
        BinaryPrimitives.WriteInt64BigEndian(prefix, start);
        return new PointBlocks(runs, prefix);
    }

    private static PointStore RunStore(Tree runs, long start, StoreBuffers buffers) => new(Run(runs, start), buffers, PieceBytes, MaxBlockBytes);

    /// <summary>Takes each removal (sorted by point) out of the blocks its id falls in: the main blocks' or a run's.</summary>
    private static void RemoveWhereTheIdsSay(PointStore main, Tree runs, List<long> starts, ReadOnlySpan<Point> removals, StoreBuffers buffers)
    {
        if (removals.IsEmpty)
            return;
        var routed = new List<Point>[starts.Count + 1];
        foreach (var point in removals)
            (routed[RunOf(starts, point.Id) + 1] ??= []).Add(point);
        if (routed[0] is { } fromMain)
            main.Apply([], fromMain.ToArray());
        for (var run = 0; run < starts.Count; run++)
        {
            if (routed[run + 1] is { } fromRun)
                RunStore(runs, starts[run], buffers).Apply([], fromRun.ToArray());
        }
    }

    /// <summary>The run holding entry <paramref name="id"/>'s points (its index in <paramref name="starts"/>), or -1 for the main blocks.</summary>
    private static int RunOf(List<long> starts, long id)
    {
        // Starts are distinct: a miss's complement is the index of the first start above.
        var at = starts.BinarySearch(id);
        return at >= 0 ? at : ~at - 1;
    }

    /// <summary>Puts the runs' points and the batch's additions into the main blocks, without the removals.</summary>
    private static void MergeAll(PointStore main, Tree runs, List<long> starts, ReadOnlySpan<Point> additions, ReadOnlySpan<Point> removals)
    {
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
    }
}
