using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Collectors;

/// <summary>Facets allocate per facet and per distinct value, never per match.</summary>
public sealed class CollectorAllocationTests : IDisposable
{
    private const int Entries = 20_000;
    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Num", FieldKind.Long));

    public CollectorAllocationTests()
    {
        using var batch = _index.BeginBatch();
        for (var i = 0; i < Entries; i++)
            batch.Add(new IndexEntry($"k{i}").Add("Tag", $"t{i % 10}").Add("Tag", $"t{i % 4}").Add("Num", i % 50));
        batch.Commit(1);
    }

    public void Dispose() => _index.Dispose();

    private static long AllocatedBy(IEngineSearcher searcher, Func<ICollector> collector)
    {
        searcher.Collect(MatchAllQuery.Instance, collector());
        // The least of a few walks: a collection that other tests cause between two walks can trim the shared array
        // pool, and the next walk then rents afresh what it would otherwise reuse.
        var least = long.MaxValue;
        for (var walk = 0; walk < 3; walk++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            searcher.Collect(MatchAllQuery.Instance, collector());
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }
        return least;
    }

    [Fact]
    public void Collect_AllocatesNothingPerMatch_ForFacets()
    {
        using var searcher = _index.OpenSearcher();
        var counting = AllocatedBy(searcher, () => new CountCollector());
        var facets = AllocatedBy(searcher, () => new CompositeCollector(
        [
            new CountCollector(),
            new TermFacetCollector("Tag"),
            new TermFacetCollector("Num"),
            new RangeFacetCollector("Num", [new ValueRange(null, false, FieldValue.From(25L), false), new ValueRange(FieldValue.From(25L), true, null, false)]),
        ]));
        // Blocks, dictionaries and 60 decoded values: a few dozen kilobytes, where a byte per match would be 20 KB more.
        Assert.InRange(facets - counting, 0, 64 * 1024);
    }

    [Fact]
    public void Collect_AllocatesNothingPerMatch_ForAggregationsAndDrillingSideways()
    {
        using var searcher = _index.OpenSearcher();
        var counting = AllocatedBy(searcher, () => new CountCollector());
        var sideways = AllocatedBy(searcher, () => new DrillSidewaysCollector(
            new CompositeCollector(
            [
                new CountCollector(),
                new TermFacetCollector("Tag", new FacetAggregator(["Num"])),
                new RangeFacetCollector("Num", [new ValueRange(null, false, FieldValue.From(25L), false)], new FacetAggregator(["Num"])),
            ]),
            [
                (new TermQuery("Tag", FieldValue.From("t1")), new TermFacetCollector("Tag", new FacetAggregator(["Num"]))),
                (new RangeQuery("Num", FieldValue.From(10L), true, null, false), new TermFacetCollector("Num")),
            ]));
        // Per walk: the collectors' blocks, batches, per-value slots and two iterators; nothing grows with the 20,000 matches.
        Assert.InRange(sideways - counting, 0, 128 * 1024);
    }
}
