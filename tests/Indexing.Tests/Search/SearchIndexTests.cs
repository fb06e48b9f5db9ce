using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Scoring;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

public class SearchIndexTests
{
    private static IndexSchema Schema() => new IndexSchema()
        .Add("Name", FieldKind.Exact)
        .Add("Code", new FieldOptions(FieldKind.Exact, CaseSensitive: true))
        .Add("Body", FieldKind.FullText)
        .Add("Age", FieldKind.Long)
        .Add("Price", FieldKind.Double)
        .Add("Tags", FieldKind.Exact)
        .Add("Note", FieldKind.Stored);

    private static SearchIndex Open() => SearchIndex.Open(StorageOptions.InMemory(), Schema());

    private static void Index(SearchIndex index, params IndexEntry[] entries)
    {
        using var batch = index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit();
    }

    private static List<string> Keys(SearchIndex index, Query query, IReadOnlyList<SortField>? sort = null)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, 0, 1000, sort).Hits.Select(h => h.Key).ToList();
    }

    [Fact]
    public void TermQuery_ExactField_IsCaseInsensitiveUnlessDeclaredOtherwise()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("a").Add("Name", "Ada Lovelace").Add("Code", "XY"),
            new IndexEntry("b").Add("Name", "ada lovelace").Add("Code", "xy"),
            new IndexEntry("c").Add("Name", "Grace"));
        Assert.Equal(["a", "b"], Keys(index, new TermQuery("Name", FieldValue.From("ADA LOVELACE"))));
        Assert.Equal(["a"], Keys(index, new TermQuery("Code", FieldValue.From("XY"))));
        Assert.Empty(Keys(index, new TermQuery("Name", FieldValue.From("Ada"))));
    }

    [Fact]
    public void NullMissingAndExists_AreToldApart()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("null").AddNull("Name"),
            new IndexEntry("missing").Add("Age", 3),
            new IndexEntry("value").Add("Name", "x"));
        Assert.Equal(["null"], Keys(index, new TermQuery("Name", FieldValue.Null)));
        Assert.Equal(["null", "value"], Keys(index, new ExistsQuery("Name")));
        Assert.Equal(["missing"], Keys(index, new NotQuery(new ExistsQuery("Name"))));
    }

    [Fact]
    public void RangeQueries_OnNumbers_AreNumericIncludingNegatives()
    {
        using var index = Open();
        var ages = new long[] { -50, -1, 0, 1, 9, 10, 100, long.MaxValue };
        Index(index, ages.Select(a => new IndexEntry($"age{a}").Add("Age", a).Add("Price", a / 4.0)).ToArray());
        Assert.Equal(["age1", "age9"], Keys(index, new RangeQuery("Age", FieldValue.From(0L), false, FieldValue.From(10L), false)));
        Assert.Equal(["age-50", "age-1", "age0"], Keys(index, new RangeQuery("Age", null, false, FieldValue.From(0L), true), [new SortField("Age")]));
        Assert.Equal(["age100", "age9223372036854775807"], Keys(index, new RangeQuery("Price", FieldValue.From(2.5), false, null, false)));
        Assert.Equal(["age9223372036854775807", "age100", "age10"], Keys(index, new RangeQuery("Age", FieldValue.From(10L), true, null, false), [new SortField("Age", Descending: true)]));
    }

    [Fact]
    public void MultiValuedField_MatchesAnyValue_AndSortsByItsSmallest()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("1").Add("Tags", "red").Add("Tags", "blue"),
            new IndexEntry("2").Add("Tags", "green"),
            new IndexEntry("3").Add("Tags", "Blue"));
        Assert.Equal(["1", "3"], Keys(index, new TermQuery("Tags", FieldValue.From("blue"))));
        Assert.Equal(["1", "3", "2"], Keys(index, MatchAllQuery.Instance, [new SortField("Tags")]));
        using var searcher = index.OpenSearcher();
        var counts = searcher.CountTerms(MatchAllQuery.Instance, "Tags");
        Assert.Equal(2, counts[FieldValue.From("blue")]);
        Assert.Equal(1, counts[FieldValue.From("red")]);
    }

    [Fact]
    public void FullText_StemsAndRanksByBm25()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("d1").Add("Body", "The quick brown fox jumps"),
            new IndexEntry("d2").Add("Body", "Jumping foxes are quick, quick, quick"),
            new IndexEntry("d3").Add("Body", "A lazy dog sleeps"));
        Assert.Equal(["d1", "d2"], Keys(index, new FullTextQuery("Body", "JUMPED"), [SortField.Score]).OrderBy(k => k).ToList());
        var ranked = Keys(index, new FullTextQuery("Body", "quick"), [SortField.Score]);
        Assert.Equal(["d2", "d1"], ranked);
        Assert.Empty(Keys(index, new FullTextQuery("Body", "the")));
    }

    [Fact]
    public void Bm25_MatchesAHandComputation()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("a").Add("Body", "apple banana apple"),
            new IndexEntry("b").Add("Body", "banana cherry"),
            new IndexEntry("c").Add("Body", "cherry date elderberry fig"));
        using var searcher = index.OpenSearcher();
        var hit = searcher.Search(new FullTextQuery("Body", "apple"), 0, 10, [SortField.Score]).Hits.Single();
        // N = 3, df(apple) = 1, tf = 2, dl = 3, avgdl = (3 + 2 + 4) / 3 = 3.
        var idf = Math.Log(1 + (3 - 1 + 0.5) / (1 + 0.5));
        var expected = idf * 2 * (1.2 + 1) / (2 + 1.2 * (1 - 0.75 + 0.75 * 3 / 3.0));
        Assert.Equal(expected, hit.Score, 4);
        Assert.Equal(expected, Bm25.Score(Bm25.Idf(1, 3), 2, 3, 3), 9);
    }

    [Fact]
    public void Phrase_NeedsConsecutivePositions_WithStopWordGaps()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("1").Add("Body", "late delivery of the order"),
            new IndexEntry("2").Add("Body", "delivery was late"),
            new IndexEntry("3").Add("Body", "order of the day").Add("Body", "late").Add("Body", "delivery"));
        Assert.Equal(["1"], Keys(index, new PhraseQuery("Body", "late deliveries")));
        Assert.Equal(["1"], Keys(index, new PhraseQuery("Body", "delivery of the order")));
        Assert.Empty(Keys(index, new PhraseQuery("Body", "delivery order")));
    }

    [Fact]
    public void PrefixAndWildcard_MatchTerms()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("1").Add("Name", "Johnson"),
            new IndexEntry("2").Add("Name", "Johanna"),
            new IndexEntry("3").Add("Name", "Robertson"));
        Assert.Equal(["1", "2"], Keys(index, new PrefixQuery("Name", "JOH")));
        Assert.Equal(["1", "3"], Keys(index, new WildcardQuery("Name", "*son")));
        Assert.Equal(["1", "2"], Keys(index, new WildcardQuery("Name", "*oh*")));
    }

    [Fact]
    public void Update_ReplacesTheEntry_AndDeleteRemovesIt()
    {
        using var index = Open();
        Index(index, new IndexEntry("k").Add("Name", "old").Add("Body", "first words"));
        Index(index, new IndexEntry("k").Add("Name", "new").Add("Body", "second words"));
        Assert.Empty(Keys(index, new TermQuery("Name", FieldValue.From("old"))));
        Assert.Equal(["k"], Keys(index, new TermQuery("Name", FieldValue.From("new"))));
        Assert.Empty(Keys(index, new FullTextQuery("Body", "first")));
        using (var batch = index.BeginBatch())
        {
            Assert.True(batch.Delete("k"));
            Assert.False(batch.Delete("k"));
            batch.Commit();
        }
        using var searcher = index.OpenSearcher();
        Assert.Equal(0, searcher.EntryCount);
        Assert.Equal(0, searcher.Count(new FullTextQuery("Body", "words")));
        Assert.Equal(default, searcher.Stats("Body"));
    }

    [Fact]
    public void Keys_OfEveryLengthUpToTheLimit_AreReplacedAndDeletedByKey()
    {
        using var index = Open();
        // Keys that share bytes but differ in length, and the longest key an entry may have.
        var keys = new[] { "1", "10", "100", "11", "2", new string('k', SearchIndex.MaxKeyBytes), new string('k', SearchIndex.MaxKeyBytes - 1) };
        Index(index, keys.Select(k => new IndexEntry(k).Add("Name", "old")).ToArray());
        Index(index, keys.Select(k => new IndexEntry(k).Add("Name", "new")).ToArray());
        Assert.Empty(Keys(index, new TermQuery("Name", FieldValue.From("old"))));
        Assert.Equal(keys.Order(StringComparer.Ordinal), Keys(index, new TermQuery("Name", FieldValue.From("new"))).Order(StringComparer.Ordinal));
        using (var batch = index.BeginBatch())
        {
            Assert.Throws<ArgumentException>(() => batch.Add(new IndexEntry(new string('k', SearchIndex.MaxKeyBytes + 1)).Add("Name", "x")));
            Assert.False(batch.Delete(new string('k', SearchIndex.MaxKeyBytes + 1)));
            Assert.False(batch.Delete("1000"));
            foreach (var key in keys)
                Assert.True(batch.Delete(key));
            batch.Commit();
        }
        using var searcher = index.OpenSearcher();
        Assert.Equal(0, searcher.EntryCount);
    }

    [Fact]
    public void EntryKey_SortsLikeTheIds_AndReadsBack_AcrossByteLengths()
    {
        long[] ids = [0, 1, 255, 256, 65_535, 65_536, 16_777_215, 16_777_216, 1L << 40, long.MaxValue - 1, long.MaxValue];
        var keys = ids.Select(id => SearchIndex.EntryKey(id, new byte[SearchIndex.MaxEntryKeySize]).ToArray()).ToList();
        for (var i = 0; i < ids.Length; i++)
        {
            Assert.Equal(ids[i], SearchIndex.EntryIdOf(keys[i]));
            if (i > 0)
                Assert.True(keys[i - 1].AsSpan().SequenceCompareTo(keys[i]) < 0, $"{ids[i - 1]} before {ids[i]}");
        }
        Assert.Equal(4, SearchIndex.EntryKey(999_999, new byte[SearchIndex.MaxEntryKeySize]).Length);
        Assert.Throws<Folio.Storage.CorruptionException>(() => SearchIndex.EntryIdOf([3, 1, 2]));
    }

    [Fact]
    public void LongValues_AreStillFoundByEquality()
    {
        using var index = Open();
        var longValue = new string('x', 5000) + "tail";
        Index(index, new IndexEntry("long").Add("Name", longValue), new IndexEntry("other").Add("Name", new string('x', 5000) + "tall"));
        Assert.Equal(["long"], Keys(index, new TermQuery("Name", FieldValue.From(longValue))));
    }

    [Fact]
    public void BadValueForNumericField_ThrowsAndIndexesNothing()
    {
        using var index = Open();
        using var batch = index.BeginBatch();
        Assert.Throws<IndexValueException>(() => batch.Add(new IndexEntry("bad").Add("Age", "not a number")));
        Assert.Equal(0, batch.Added);
    }

    [Fact]
    public void Add_IndexesOnlyTheEntrysOwnValues_AfterAnEntryFailedHalfwayInTheSameBatch()
    {
        using var index = Open();
        using (var batch = index.BeginBatch())
        {
            // The failing entry's text, name and price are converted before its age fails.
            Assert.Throws<IndexValueException>(() => batch.Add(new IndexEntry("bad")
                .Add("Body", "zebra crossing").Add("Name", "Zed").Add("Price", 9.5).Add("Age", "not a number")));
            batch.Add(new IndexEntry("good").Add("Body", "crossing the river").Add("Age", 7L));
            batch.Add(new IndexEntry("next").Add("Name", "Ann"));
            batch.Commit();
        }

        Assert.Empty(Keys(index, new FullTextQuery("Body", "zebra")));
        Assert.Empty(Keys(index, new TermQuery("Name", FieldValue.From("Zed"))));
        Assert.Empty(Keys(index, new ExistsQuery("Price")));
        Assert.Equal(["good"], Keys(index, new PhraseQuery("Body", "crossing the river")));
        Assert.Equal(["good"], Keys(index, new ExistsQuery("Body")));
        Assert.Equal(["good"], Keys(index, new ExistsQuery("Age")));
        Assert.Equal(["next"], Keys(index, new ExistsQuery("Name")));
        using var searcher = index.OpenSearcher();
        var good = searcher.Search(new TermQuery("Age", FieldValue.From(7L)), 0, 1).Hits.Single();
        Assert.Null(searcher.GetValues("Name", good.EntryId));
        Assert.Equal([FieldValue.From(7L)], searcher.GetValues("Age", good.EntryId));
    }

    [Fact]
    public void Add_KeepsEachEntrysValuesApart_WhenEntriesOfOneBatchShareFields()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("1").Add("Name", "Ada").Add("Note", "first").Add("Body", "late delivery").Add("Tags", "a").Add("Tags", "b"),
            new IndexEntry("2").Add("Name", "Grace").Add("Note", "second").Add("Body", "delivery late").Add("Tags", "c"),
            new IndexEntry("3").Add("Name", "Alan").Add("Age", 40L));
        using var searcher = index.OpenSearcher();
        long Id(string key) => searcher.Search(MatchAllQuery.Instance, 0, 10).Hits.Single(h => h.Key == key).EntryId;

        Assert.Equal([FieldValue.From("grace")], searcher.GetValues("Name", Id("2")));
        Assert.Equal([FieldValue.From("second")], searcher.GetValues("Note", Id("2")));
        Assert.Equal([FieldValue.From("c")], searcher.GetValues("Tags", Id("2")));
        Assert.Null(searcher.GetValues("Tags", Id("3")));
        Assert.Equal(["1"], Keys(index, new PhraseQuery("Body", "late delivery")));
        Assert.Equal(["2"], Keys(index, new PhraseQuery("Body", "delivery late")));
        Assert.Equal(["3"], Keys(index, new ExistsQuery("Age")));
    }

    [Fact]
    public void NumericDocValues_AreReadFromTheColumn_WhenAnEntryHasOneNumber()
    {
        using var index = Open();
        Index(index,
            new IndexEntry("one").Add("Age", 30L).Add("Price", 2.5),
            new IndexEntry("many").Add("Age", 50L).Add("Age", 10L).Add("Price", -1.25),
            new IndexEntry("null").Add("Age", FieldValue.Null).Add("Price", 7.0),
            new IndexEntry("none").Add("Name", "x"));
        Index(index, new IndexEntry("one").Add("Age", 31L));

        // The replaced entry's number was found through the column to take it out of the postings.
        Assert.Empty(Keys(index, new TermQuery("Age", FieldValue.From(30L))));
        Assert.Empty(Keys(index, new TermQuery("Price", FieldValue.From(2.5))));
        Assert.Equal(["one"], Keys(index, new TermQuery("Age", FieldValue.From(31L))));
        Assert.Equal(["many", "one"], Keys(index, new RangeQuery("Age", FieldValue.From(25L), true, FieldValue.From(60L), true)).OrderBy(k => k).ToList());

        using var searcher = index.OpenSearcher();
        long Id(string key) => searcher.Search(MatchAllQuery.Instance, 0, 10).Hits.Single(h => h.Key == key).EntryId;
        // Only the entries whose numbers are not one non-null value keep a doc-value record.
        Assert.Equal(2, searcher.Transaction.OpenTree(SearchIndex.ValuesTree("Age"))!.Count);
        Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.ValuesTree("Price"))!.Count);

        Assert.Equal([FieldValue.From(31L)], searcher.GetValues("Age", Id("one")));
        Assert.Equal([FieldValue.From(50L), FieldValue.From(10L)], searcher.GetValues("Age", Id("many")));
        Assert.Equal([FieldValue.Null], searcher.GetValues("Age", Id("null")));
        Assert.Null(searcher.GetValues("Age", Id("none")));
        Assert.Null(searcher.GetValues("Price", Id("one")));
        Assert.Equal([FieldValue.From(-1.25)], searcher.GetValues("Price", Id("many")));

        var counts = searcher.CountTerms(MatchAllQuery.Instance, "Age");
        Assert.Equal(4, counts.Count);
        Assert.Equal(1, counts[FieldValue.From(31L)]);
        Assert.Equal(1, counts[FieldValue.Null]);
        Assert.False(counts.ContainsKey(FieldValue.From(30L)));
        Assert.Equal([1L, 2L], searcher.CountRanges(MatchAllQuery.Instance, "Age",
            [new ValueRange(FieldValue.From(31L), true, FieldValue.From(31L), true), new ValueRange(FieldValue.From(10L), true, FieldValue.From(40L), true)]));
        Assert.Equal([1L, 1L], searcher.CountRanges(MatchAllQuery.Instance, "Price",
            [new ValueRange(null, false, FieldValue.From(0.0), false), new ValueRange(FieldValue.From(5.0), true, null, false)]));
    }

    [Fact]
    public void NumbersKeptInTheColumn_LeaveNoTrace_WhenDeletedOrReplacedInTheSameBatch()
    {
        using var index = Open();
        using (var batch = index.BeginBatch())
        {
            batch.Add(new IndexEntry("twice").Add("Age", 1L));
            batch.Add(new IndexEntry("twice").Add("Age", 2L));
            batch.Add(new IndexEntry("min").Add("Age", long.MinValue).Add("Price", -0.0));
            batch.Add(new IndexEntry("inf").Add("Price", double.PositiveInfinity));
            batch.Add(new IndexEntry("gone").Add("Age", 3L).Add("Price", double.NegativeInfinity));
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            Assert.True(batch.Delete("gone"));
            batch.Add(new IndexEntry("min").Add("Age", long.MaxValue));
            Assert.True(batch.Delete("min"));
            batch.Add(new IndexEntry("min").Add("Age", long.MinValue).Add("Price", 0.0));
            batch.Commit();
        }

        Assert.Empty(Keys(index, new TermQuery("Age", FieldValue.From(1L))));
        Assert.Equal(["twice"], Keys(index, new TermQuery("Age", FieldValue.From(2L))));
        Assert.Empty(Keys(index, new TermQuery("Age", FieldValue.From(3L))));
        Assert.Empty(Keys(index, new TermQuery("Price", FieldValue.From(double.NegativeInfinity))));
        Assert.Empty(Keys(index, new TermQuery("Age", FieldValue.From(long.MaxValue))));
        Assert.Equal(["min"], Keys(index, new TermQuery("Age", FieldValue.From(long.MinValue))));
        Assert.Equal(["min"], Keys(index, new TermQuery("Price", FieldValue.From(-0.0))));
        Assert.Equal(["inf"], Keys(index, new RangeQuery("Price", FieldValue.From(1e308), true, null, false)));
        using var searcher = index.OpenSearcher();
        long Id(string key) => searcher.Search(MatchAllQuery.Instance, 0, 10).Hits.Single(h => h.Key == key).EntryId;
        Assert.Equal(3, searcher.Count(MatchAllQuery.Instance));
        Assert.Equal([FieldValue.From(long.MinValue)], searcher.GetValues("Age", Id("min")));
        Assert.Equal([FieldValue.From(0.0)], searcher.GetValues("Price", Id("min")));
        Assert.Equal([FieldValue.From(double.PositiveInfinity)], searcher.GetValues("Price", Id("inf")));
        Assert.Equal([FieldValue.From(2L)], searcher.GetValues("Age", Id("twice")));
    }

    [Fact]
    public void Searcher_KeepsItsSnapshot_WhileBatchesCommit()
    {
        using var index = Open();
        Index(index, new IndexEntry("1").Add("Name", "x"));
        using var before = index.OpenSearcher();
        Index(index, new IndexEntry("2").Add("Name", "x"));
        Assert.Equal(1, before.Count(new TermQuery("Name", FieldValue.From("x"))));
        using var after = index.OpenSearcher();
        Assert.Equal(2, after.Count(new TermQuery("Name", FieldValue.From("x"))));
    }

    [Fact]
    public void ManyEntries_SpanChunks_AndAdvanceCrossesThem()
    {
        using var index = Open();
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 20_000; i++)
                batch.Add(new IndexEntry($"e{i}").Add("Tags", i % 2 == 0 ? "even" : "odd").Add("Age", i % 7));
            batch.Commit();
        }
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < 20_000; i += 3)
                batch.Delete($"e{i}");
            batch.Commit();
        }
        using var searcher = index.OpenSearcher();
        var expected = Enumerable.Range(0, 20_000).Count(i => i % 2 == 0 && i % 7 == 3 && i % 3 != 0);
        Assert.Equal(expected, searcher.Count(new AndQuery([new TermQuery("Tags", FieldValue.From("even")), new TermQuery("Age", FieldValue.From(3L))])));
        index.Environment.Verify();
    }
}
