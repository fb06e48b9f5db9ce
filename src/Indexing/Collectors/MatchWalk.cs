using System.Buffers;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Collectors;

/// <summary>
/// The walks over a query's matches every engine's searcher makes the same way: handing them to a collector in
/// batches (<see cref="IEngineSearcher.Collect"/>), and the first page in entry-id order (<see cref="IEngineSearcher.Search"/> without a sort).
/// </summary>
internal static class MatchWalk
{
    /// <summary>How many matches <see cref="InBatches"/> hands a collector at once: its doc-value reads for a batch fit in the CPU caches.</summary>
    public const int BatchSize = 256;

    /// <summary>Walks check their cancellation when their count of entries or terms has these low bits clear: every 1,024.</summary>
    public const int CancellationStride = 1023;

    /// <summary>Walks <paramref name="matches"/> once, handing them to <paramref name="collector"/> <see cref="BatchSize"/> at a time, from <see cref="ICollector.Begin"/> to <see cref="ICollector.Finish"/>.</summary>
    public static void InBatches(IEngineSearcher searcher, DocIdIterator matches, ICollector collector)
    {
        collector.Begin(searcher);
        var needsScores = collector.NeedsScores;
        var ids = ArrayPool<long>.Shared.Rent(BatchSize);
        var scores = needsScores ? ArrayPool<float>.Shared.Rent(BatchSize) : [];
        var count = 0;
        while (matches.MoveNext())
        {
            ids[count] = matches.Current;
            if (needsScores)
                scores[count] = matches.Score;
            if (++count == BatchSize)
            {
                searcher.Guard.Check();
                collector.Collect(ids.AsSpan(0, count), needsScores ? scores.AsSpan(0, count) : default);
                count = 0;
            }
        }
        if (count > 0)
            collector.Collect(ids.AsSpan(0, count), needsScores ? scores.AsSpan(0, count) : default);
        ArrayPool<long>.Shared.Return(ids);
        if (needsScores)
            ArrayPool<float>.Shared.Return(scores);
        collector.Finish();
    }

    /// <summary>The page <paramref name="skip"/>..<paramref name="skip"/>+<paramref name="take"/> of <paramref name="matches"/> in entry-id order, with the count of them all.</summary>
    public static TopDocs FirstInIdOrder(IEngineSearcher searcher, DocIdIterator matches, int skip, int take)
    {
        var hits = new List<SearchHit>(Math.Min(take, 1024));
        long total = 0;
        while (matches.MoveNext())
        {
            if (total >= skip && hits.Count < take)
                hits.Add(new SearchHit(matches.Current, searcher.GetKey(matches.Current), matches.Score));
            if ((++total & CancellationStride) == 0)
                searcher.Guard.Check();
        }
        return new TopDocs(total, hits);
    }
}
