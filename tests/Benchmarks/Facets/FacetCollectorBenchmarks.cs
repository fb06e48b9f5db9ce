using BenchmarkDotNet.Attributes;
using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Benchmarks.Facets;

/// <summary>
/// The facet collectors alone over every entry of a 1M-entry index held in memory, shaped as facet-load's records: a
/// price in cents (a double field) counted into facet-load's five ranges, and a brand of 5,000 values counted by
/// term. Isolates the counting from the query and the answer, to show a change to the counting before and after:
/// <c>dotnet run -c Release --project tests/Benchmarks -- --filter '*FacetCollectorBenchmarks*'</c>. The
/// <c>WithoutAWalk</c> ones count the same from the index's per-value counts (<see cref="IEveryEntryCounter"/>).
/// </summary>
[MemoryDiagnoser]
public class FacetCollectorBenchmarks
{
    private const int Entries = 1_000_000;
    private static readonly ValueRange[] PriceRanges =
    [
        new(null, false, FieldValue.From(25.0), false),
        new(FieldValue.From(25.0), true, FieldValue.From(50.0), false),
        new(FieldValue.From(50.0), true, FieldValue.From(100.0), false),
        new(FieldValue.From(100.0), true, FieldValue.From(200.0), false),
        new(FieldValue.From(200.0), true, null, false),
    ];

    private IEngineIndex _index = null!;
    private IEngineSearcher _searcher = null!;

    [GlobalSetup]
    public void Setup()
    {
        _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
            .Add("Brand", FieldKind.Exact)
            .Add("Price", FieldKind.Double));
        var random = new Random(19);
        for (var start = 0; start < Entries; start += 50_000)
        {
            using var batch = _index.BeginBatch();
            for (var i = start; i < start + 50_000; i++)
                batch.Add(new IndexEntry($"products/{i}").Add("Brand", $"brand-{random.Next(5_000)}").Add("Price", random.Next(100, 30_000) / 100.0));
            batch.Commit(start / 50_000 + 1);
        }
        _searcher = _index.OpenSearcher();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _searcher.Dispose();
        _index.Dispose();
    }

    /// <summary>Five price ranges over every entry.</summary>
    [Benchmark]
    public long PriceRangesOverAll()
    {
        var collector = new RangeFacetCollector("Price", PriceRanges);
        _searcher.Collect(MatchAllQuery.Instance, collector);
        return collector.Counts[2];
    }

    /// <summary>5,000 brands over every entry.</summary>
    [Benchmark]
    public int BrandTermsOverAll()
    {
        var collector = new TermFacetCollector("Brand");
        _searcher.Collect(MatchAllQuery.Instance, collector);
        return collector.Terms.Count;
    }

    /// <summary>Five price ranges over every entry, counted from the point blocks without a walk, as a facet query without a where clause does.</summary>
    [Benchmark]
    public long PriceRangesOverAllWithoutAWalk()
    {
        var collector = new RangeFacetCollector("Price", PriceRanges);
        if (!((IEveryEntryCounter)collector).TryCountEveryEntry(_searcher))
            throw new InvalidOperationException("The price ranges were not counted from the point blocks.");
        return collector.Counts[2];
    }

    /// <summary>5,000 brands over every entry, counted from the terms' posting counts without a walk, as a facet query without a where clause does.</summary>
    [Benchmark]
    public int BrandTermsOverAllWithoutAWalk()
    {
        var collector = new TermFacetCollector("Brand");
        if (!((IEveryEntryCounter)collector).TryCountEveryEntry(_searcher))
            throw new InvalidOperationException("The brands were not counted from their posting counts.");
        return collector.Terms.Count;
    }
}
