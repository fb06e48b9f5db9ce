using Folio.Indexing.Collectors;
using Folio.Indexing.Engines;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Collectors;

/// <summary>Term and range facets, each fed by the engine's doc values a batch at a time.</summary>
public sealed class FacetCollectorTests : IDisposable
{
    private readonly IEngineIndex _index = FolioSearchEngine.Instance.Open(StorageOptions.InMemory(), new IndexSchema()
        .Add("Tag", FieldKind.Exact)
        .Add("Code", new FieldOptions(FieldKind.Exact, CaseSensitive: true))
        .Add("Num", FieldKind.Long)
        .Add("Price", FieldKind.Double)
        .Add("Note", FieldKind.Stored)
        .Add("Body", FieldKind.FullText));

    public void Dispose() => _index.Dispose();

    private void Index(params IndexEntry[] entries)
    {
        using var batch = _index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit(1);
    }

    private T Collect<T>(T collector, Query? query = null)
        where T : ICollector
    {
        using var searcher = _index.OpenSearcher();
        searcher.Collect(query ?? MatchAllQuery.Instance, collector);
        return collector;
    }

    [Fact]
    public void TermFacet_CountsAnEntryOncePerDistinctValue_WhenAnArrayRepeatsIt()
    {
        Index(
            new IndexEntry("a").Add("Tag", "red").Add("Tag", "blue").Add("Tag", "RED"),
            new IndexEntry("b").Add("Tag", "blue").Add("Tag", "blue"),
            new IndexEntry("c").Add("Tag", "green"));
        var counts = Collect(new TermFacetCollector("Tag")).Counts;
        Assert.Equal(3, counts.Count);
        Assert.Equal(1, counts[FieldValue.From("red")]);
        Assert.Equal(2, counts[FieldValue.From("blue")]);
        Assert.Equal(1, counts[FieldValue.From("green")]);
    }

    [Fact]
    public void TermFacet_CountsNullsAsNull_AndLeavesOutEntriesWithoutAValue()
    {
        Index(
            new IndexEntry("null").AddNull("Tag"),
            new IndexEntry("null-and-value").AddNull("Tag").Add("Tag", "x").AddNull("Tag"),
            new IndexEntry("present").AddPresent("Tag"),
            new IndexEntry("missing").Add("Num", 1),
            new IndexEntry("value").Add("Tag", "x"));
        var counts = Collect(new TermFacetCollector("Tag")).Counts;
        Assert.Equal(new Dictionary<FieldValue, long> { [FieldValue.Null] = 2, [FieldValue.From("x")] = 2 }, counts);
    }

    [Fact]
    public void TermFacet_CountsNumbersAsNumbers_AndTextAsIndexed()
    {
        Index(
            new IndexEntry("a").Add("Num", 5).Add("Num", -5).Add("Price", 2.5).Add("Code", "Ab").Add("Note", "As Given"),
            new IndexEntry("b").Add("Num", 5).Add("Price", -0.0).Add("Code", "ab").Add("Note", "As Given"),
            new IndexEntry("c").Add("Num", long.MaxValue).Add("Price", 0.0).Add("Code", "Ab"));
        Assert.Equal(new Dictionary<FieldValue, long> { [FieldValue.From(5L)] = 2, [FieldValue.From(-5L)] = 1, [FieldValue.From(long.MaxValue)] = 1 },
            Collect(new TermFacetCollector("Num")).Counts);
        Assert.Equal(new Dictionary<FieldValue, long> { [FieldValue.From(2.5)] = 1, [FieldValue.From(0.0)] = 2 }, Collect(new TermFacetCollector("Price")).Counts);
        Assert.Equal(new Dictionary<FieldValue, long> { [FieldValue.From("Ab")] = 2, [FieldValue.From("ab")] = 1 }, Collect(new TermFacetCollector("Code")).Counts);
        Assert.Equal(new Dictionary<FieldValue, long> { [FieldValue.From("As Given")] = 2 }, Collect(new TermFacetCollector("Note")).Counts);
    }

    [Fact]
    public void TermFacet_CountsOnlyTheMatches_AcrossManyBatches()
    {
        var entries = new IndexEntry[3000];
        for (var i = 0; i < entries.Length; i++)
            entries[i] = new IndexEntry($"k{i}").Add("Num", i % 7).Add("Tag", $"t{i % 5}").Add("Tag", $"t{i % 3}");
        Index(entries);
        var counts = Collect(new TermFacetCollector("Tag"), new TermQuery("Num", FieldValue.From(3L))).Counts;
        var expected = new Dictionary<FieldValue, long>();
        for (var i = 3; i < entries.Length; i += 7)
        {
            foreach (var tag in new[] { $"t{i % 5}", $"t{i % 3}" }.Distinct())
                expected[FieldValue.From(tag)] = expected.GetValueOrDefault(FieldValue.From(tag)) + 1;
        }
        Assert.Equal(expected, counts);
    }

    [Fact]
    public void TermFacet_AnswersEmpty_WhenNothingMatches_EvenOnAFieldTheIndexLacks()
    {
        Index(new IndexEntry("a").Add("Tag", "x"));
        Assert.Empty(Collect(new TermFacetCollector("Undeclared"), new TermQuery("Tag", FieldValue.From("y"))).Counts);
        Assert.Throws<ArgumentException>(() => Collect(new TermFacetCollector("Undeclared")));
    }

    [Fact]
    public void Counts_Throw_BeforeTheWalkEnded()
    {
        Assert.Throws<InvalidOperationException>(() => new TermFacetCollector("Tag").Counts);
        Assert.Throws<InvalidOperationException>(() => new RangeFacetCollector("Num", []).Counts);
    }

    [Fact]
    public void RangeFacet_CountsAnEntryOncePerRange_WhenSeveralOfItsValuesFallInIt()
    {
        Index(
            new IndexEntry("a").Add("Num", 1).Add("Num", 2).Add("Num", 50),
            new IndexEntry("b").Add("Num", 10),
            new IndexEntry("c").AddNull("Num"),
            new IndexEntry("d").Add("Tag", "no number"));
        var counts = Collect(new RangeFacetCollector("Num",
        [
            new ValueRange(null, false, FieldValue.From(10L), false),
            new ValueRange(FieldValue.From(10L), true, FieldValue.From(50L), true),
            new ValueRange(FieldValue.From(50L), false, null, false),
            new ValueRange(null, false, null, false),
        ])).Counts;
        Assert.Equal([1L, 2L, 0L, 2L], counts);
    }

    [Fact]
    public void RangeFacet_ComparesNumbersNumerically_AndTextAsNormalized()
    {
        Index(
            new IndexEntry("a").Add("Price", -2.5).Add("Tag", "Apple"),
            new IndexEntry("b").Add("Price", 0.0).Add("Tag", "banana"),
            new IndexEntry("c").Add("Price", 1e10).Add("Tag", "Cherry"));
        Assert.Equal([1L, 2L], Collect(new RangeFacetCollector("Price",
            [new ValueRange(null, false, FieldValue.From(0L), false), new ValueRange(FieldValue.From(-0.0), true, null, false)])).Counts);
        Assert.Equal([2L, 1L], Collect(new RangeFacetCollector("Tag",
            [new ValueRange(FieldValue.From("APPLE"), true, FieldValue.From("C"), false), new ValueRange(FieldValue.From("c"), true, null, false)])).Counts);
    }

    [Fact]
    public void RangeFacet_LeavesABoundOpen_WhenItCannotBeAValueOfTheField()
    {
        Index(new IndexEntry("a").Add("Num", 1), new IndexEntry("b").Add("Num", 100));
        Assert.Equal([2L], Collect(new RangeFacetCollector("Num", [new ValueRange(FieldValue.From("not a number"), true, null, false)])).Counts);
    }

    [Fact]
    public void TermFacet_CountsSingleValuesAndArraysAlike_WhateverTheirSpelling()
    {
        // Single values are counted by term id, arrays and nulls by their values: both must land on the same values.
        Index(
            new IndexEntry("a").Add("Tag", "Red"),
            new IndexEntry("b").Add("Tag", "red"),
            new IndexEntry("c").Add("Tag", "Red").Add("Tag", "blue"),
            new IndexEntry("d").Add("Tag", "BLUE"),
            new IndexEntry("e").AddNull("Tag"),
            new IndexEntry("f").Add("Num", 1));
        var facet = Collect(new TermFacetCollector("Tag"));
        Assert.Equal(3L, facet.Counts[FieldValue.From("red")]);
        Assert.Equal(2L, facet.Counts[FieldValue.From("blue")]);
        Assert.Equal(1L, facet.Counts[FieldValue.Null]);
        Assert.Equal(3, facet.Counts.Count);
        Assert.Equal(1L, facet.Missing);
    }

    [Fact]
    public void RangeFacet_HonoursEachBoundsInclusion_ForEntriesOfOneNumber()
    {
        Index(
            new IndexEntry("a").Add("Num", 9),
            new IndexEntry("b").Add("Num", 10),
            new IndexEntry("c").Add("Num", 11),
            new IndexEntry("d").Add("Num", long.MaxValue));
        var counts = Collect(new RangeFacetCollector("Num",
        [
            new ValueRange(FieldValue.From(9L), false, FieldValue.From(11L), false),
            new ValueRange(FieldValue.From(9L), true, FieldValue.From(11L), true),
            new ValueRange(FieldValue.From(10L), false, FieldValue.From(10L), false),
            new ValueRange(FieldValue.From(long.MaxValue), false, null, false),
            new ValueRange(FieldValue.From(11L), true, null, false),
        ])).Counts;
        Assert.Equal([1L, 3L, 0L, 0L, 2L], counts);
    }

    [Fact]
    public void RangeFacet_CountsDecimalPricesOnTheirBounds_AsTheirDoublesCompare()
    {
        // Prices of two decimals are stored scaled (cents) per block; ranges are compared in cents, which must
        // count a price lying on a bound as the double comparison does, whichever side is inclusive.
        var prices = new double[10_000];
        var entries = new IndexEntry[prices.Length];
        for (var i = 0; i < prices.Length; i++)
        {
            prices[i] = Math.Round(((i * 7919) % 20_000 - 3_000) / 100.0, 2);
            if (i < OnBounds.Length * 3 && i % 3 == 1)
                prices[i] = OnBounds[i / 3];
            entries[i] = new IndexEntry($"k{i}").Add("Num", i % 3).Add("Price", prices[i]);
        }
        Index(entries);
        ValueRange[] ranges =
        [
            new(null, false, FieldValue.From(10.0), false),
            new(FieldValue.From(10.0), true, FieldValue.From(24.99), true),
            new(FieldValue.From(-0.01), false, FieldValue.From(0.1), false),
            new(FieldValue.From(24.99), false, FieldValue.From(100L), true),
            new(FieldValue.From(-30.0), true, FieldValue.From(-29.99), true),
            new(FieldValue.From(169.99), true, null, false),
            new(FieldValue.From(1e300), true, null, false),
            new(FieldValue.From(5.005), true, FieldValue.From(5.015), false),
        ];
        var counts = Collect(new RangeFacetCollector("Price", ranges), new TermQuery("Num", FieldValue.From(1L))).Counts;
        var expected = new long[ranges.Length];
        for (var i = 1; i < prices.Length; i += 3)
        {
            for (var r = 0; r < ranges.Length; r++)
            {
                var (lower, upper) = (ranges[r].Lower?.Double, ranges[r].Upper?.Double);
                var above = lower is not { } l || prices[i] > l || (ranges[r].LowerInclusive && prices[i] == l);
                var below = upper is not { } u || prices[i] < u || (ranges[r].UpperInclusive && prices[i] == u);
                expected[r] += above && below ? 1 : 0;
            }
        }
        Assert.Equal(expected, counts);
        Assert.All(expected[..6], count => Assert.True(count > 0));
    }

    // Prices that lie on the bounds of RangeFacet_CountsDecimalPricesOnTheirBounds_AsTheirDoublesCompare's ranges.
    private static readonly double[] OnBounds = [-30.0, -29.99, -0.01, 0.1, 5.01, 10.0, 24.99, 100.0, 169.99];
}
