using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Folio.Storage.Platform;

namespace Folio.Indexing.Tests.Search;

/// <summary>The dense sort-key columns of numeric fields, read directly and through sorted searches.</summary>
public class NumericColumnTests
{
    private static IndexSchema Schema() => new IndexSchema()
        .Add("Num", FieldKind.Long)
        .Add("Price", FieldKind.Double)
        .Add("Name", FieldKind.Exact)
        .Add("Body", FieldKind.FullText);

    private static StorageOptions Storage() => StorageOptions.InMemory() with { FileSystem = new MemoryFileSystem() };

    private static void Index(SearchIndex index, params IndexEntry[] entries)
    {
        using var batch = index.BeginBatch();
        foreach (var entry in entries)
            batch.Add(entry);
        batch.Commit();
    }

    private static long IdOf(IndexSearcher searcher, string key) =>
        searcher.Search(MatchAllQuery.Instance, 0, int.MaxValue).Hits.Single(h => h.Key == key).EntryId;

    private static long? LongKey(IndexSearcher searcher, string field, long entryId) =>
        searcher.NumericColumn(field) is { } column && column.TryGet(entryId, out var value) ? TermEncoding.DecodeLong(BigEndian(value)) : null;

    private static double? DoubleKey(IndexSearcher searcher, string field, long entryId) =>
        searcher.NumericColumn(field) is { } column && column.TryGet(entryId, out var value) ? TermEncoding.DecodeDouble(BigEndian(value)) : null;

    private static byte[] BigEndian(ulong value)
    {
        var bytes = new byte[8];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64BigEndian(bytes, value);
        return bytes;
    }

    private static List<string> SortedKeys(SearchIndex index, Query query, int skip, int take, params SortField[] sort)
    {
        using var searcher = index.OpenSearcher();
        return searcher.Search(query, skip, take, sort).Hits.Select(h => h.Key).ToList();
    }

    [Fact]
    public void TryGet_MultiValuedField_ReturnsTheSmallestNonNullValue()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index,
            new IndexEntry("a").Add("Num", 5L).AddNull("Num").Add("Num", -3L).Add("Num", 10L),
            new IndexEntry("b").Add("Price", 2.5).Add("Price", -0.0).Add("Price", double.PositiveInfinity),
            new IndexEntry("c").Add("Price", -1e300).Add("Price", double.NegativeInfinity));

        using var searcher = index.OpenSearcher();
        Assert.Equal(-3L, LongKey(searcher, "Num", IdOf(searcher, "a")));
        Assert.Equal(0.0, DoubleKey(searcher, "Price", IdOf(searcher, "b")));
        Assert.Equal(double.NegativeInfinity, DoubleKey(searcher, "Price", IdOf(searcher, "c")));
    }

    [Fact]
    public void TryGet_NullOrMissingValue_ReturnsFalse()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index,
            new IndexEntry("null").AddNull("Num"),
            new IndexEntry("nulls").AddNull("Num").AddNull("Num"),
            new IndexEntry("missing").Add("Name", "x"),
            new IndexEntry("present").AddPresent("Num"),
            new IndexEntry("value").AddNull("Num").Add("Num", long.MinValue));

        using var searcher = index.OpenSearcher();
        Assert.Null(LongKey(searcher, "Num", IdOf(searcher, "null")));
        Assert.Null(LongKey(searcher, "Num", IdOf(searcher, "nulls")));
        Assert.Null(LongKey(searcher, "Num", IdOf(searcher, "missing")));
        Assert.Null(LongKey(searcher, "Num", IdOf(searcher, "present")));
        Assert.Equal(long.MinValue, LongKey(searcher, "Num", IdOf(searcher, "value")));
        Assert.Null(searcher.NumericColumn("Price"));
        Assert.Null(searcher.NumericColumn("Name"));
    }

    [Fact]
    public void TryGet_DeletedEntry_ReturnsFalseAndEmptyBlocksAreDropped()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index, new IndexEntry("a").Add("Num", 1L), new IndexEntry("b").Add("Num", 2L));
        long a, b;
        using (var searcher = index.OpenSearcher())
        {
            a = IdOf(searcher, "a");
            b = IdOf(searcher, "b");
        }
        using (var batch = index.BeginBatch())
        {
            Assert.True(batch.Delete("a"));
            batch.Commit();
        }
        using (var searcher = index.OpenSearcher())
        {
            Assert.Null(LongKey(searcher, "Num", a));
            Assert.Equal(2L, LongKey(searcher, "Num", b));
        }
        using (var batch = index.BeginBatch())
        {
            Assert.True(batch.Delete("b"));
            batch.Commit();
        }
        using (var searcher = index.OpenSearcher())
        {
            Assert.Null(LongKey(searcher, "Num", b));
            Assert.Equal(0, searcher.Transaction.OpenTree(SearchIndex.ColumnTree("Num"))!.Count);
        }
    }

    [Fact]
    public void TryGet_UpdatedEntry_NewIdHoldsTheNewValueAndOldIdNone()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index, new IndexEntry("a").Add("Num", 7L));
        long before;
        using (var searcher = index.OpenSearcher())
            before = IdOf(searcher, "a");
        Index(index, new IndexEntry("a").Add("Num", 3L).Add("Num", 9L));
        Index(index, new IndexEntry("b").Add("Num", 1L), new IndexEntry("b").AddNull("Num"));

        using (var searcher = index.OpenSearcher())
        {
            var after = IdOf(searcher, "a");
            Assert.NotEqual(before, after);
            Assert.Null(LongKey(searcher, "Num", before));
            Assert.Equal(3L, LongKey(searcher, "Num", after));
            Assert.Null(LongKey(searcher, "Num", IdOf(searcher, "b")));
        }
        Assert.Equal(["b", "a"], SortedKeys(index, MatchAllQuery.Instance, 0, 10, new SortField("Num")));
    }

    [Fact]
    public void TryGet_IdsAcrossBlockBoundaries_EachReadsItsOwnValue()
    {
        const int count = NumericColumn.BlockSize * 4 + 17;
        using var index = SearchIndex.Open(Storage(), Schema());
        // Block 0 spans the whole long range (no code left for "none": presence bits), block 1 all but
        // one value of it (8-byte codes), block 2 one value (1-byte codes), block 3 small values with
        // gaps, block 4 a few entries.
        static long? ValueOf(int i) => (i / NumericColumn.BlockSize) switch
        {
            0 => i % 7 == 3 ? null : i % 3 == 0 ? long.MinValue + i : long.MaxValue - i + 1,
            1 => i % 7 == 3 ? null : i % 3 == 0 ? long.MinValue + 1 + i % 5 : long.MaxValue - i % 11,
            2 => i % 7 == 3 ? null : 42,
            _ => i % 5 == 0 ? null : 1000 + i % 300,
        };
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < count; i++)
            {
                var entry = new IndexEntry($"k{i}");
                if (ValueOf(i) is { } value)
                    entry.Add("Num", value);
                batch.Add(entry);
            }
            batch.Commit();
        }

        using var searcher = index.OpenSearcher();
        var column = searcher.NumericColumn("Num")!;
        foreach (var hit in searcher.Search(MatchAllQuery.Instance, 0, int.MaxValue).Hits)
        {
            var expected = ValueOf(int.Parse(hit.Key[1..], System.Globalization.CultureInfo.InvariantCulture));
            long? actual = column.TryGet(hit.EntryId, out var value) ? TermEncoding.DecodeLong(BigEndian(value)) : null;
            Assert.Equal(expected, actual);
        }
    }

    [Fact]
    public void TryGet_AfterReopen_ReadsTheCommittedColumn()
    {
        var storage = Storage();
        using (var index = SearchIndex.Open(storage, Schema()))
        {
            Index(index, new IndexEntry("a").Add("Num", 10L).Add("Price", 1.5), new IndexEntry("b").Add("Num", -10L));
            using var batch = index.BeginBatch();
            batch.Add(new IndexEntry("c").Add("Num", 0L));
            // Not committed: must leave no trace.
        }

        using (var index = SearchIndex.Open(storage, Schema()))
        {
            using (var searcher = index.OpenSearcher())
            {
                Assert.Equal(10L, LongKey(searcher, "Num", IdOf(searcher, "a")));
                Assert.Equal(-10L, LongKey(searcher, "Num", IdOf(searcher, "b")));
                Assert.Equal(1.5, DoubleKey(searcher, "Price", IdOf(searcher, "a")));
                Assert.Null(DoubleKey(searcher, "Price", IdOf(searcher, "b")));
                Assert.Null(LongKey(searcher, "Num", searcher.NextEntryId));
            }
            Assert.Equal(["b", "a"], SortedKeys(index, MatchAllQuery.Instance, 0, 10, new SortField("Num")));
        }
    }

    [Fact]
    public void Search_SortedByNumericFields_OrdersMissingFirstAscendingAndLastDescending()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index,
            new IndexEntry("n3").Add("Num", 3L).Add("Price", 1.0),
            new IndexEntry("none").Add("Name", "x"),
            new IndexEntry("n1").Add("Num", 1L).Add("Num", 50L).Add("Price", 1.0),
            new IndexEntry("null").AddNull("Num").Add("Price", 2.0),
            new IndexEntry("n3b").Add("Num", 3L).Add("Price", 0.5));

        Assert.Equal(["none", "null", "n1", "n3", "n3b"], SortedKeys(index, MatchAllQuery.Instance, 0, 10, new SortField("Num")));
        Assert.Equal(["n3", "n3b", "n1", "none", "null"], SortedKeys(index, MatchAllQuery.Instance, 0, 10, new SortField("Num", Descending: true)));
        Assert.Equal(["n3b", "n3", "n1"], SortedKeys(index, MatchAllQuery.Instance, 0, 3, new SortField("Num", Descending: true), new SortField("Price")));
        Assert.Equal(["n1", "n3"], SortedKeys(index, MatchAllQuery.Instance, 2, 2, new SortField("Num")));
        Assert.Equal(["none", "n3b", "n3", "n1", "null"], SortedKeys(index, MatchAllQuery.Instance, 0, int.MaxValue, new SortField("Price"), new SortField("Name", Descending: true)));
    }

    [Fact]
    public void Search_SortedByNumericThenScore_BreaksTiesByScoreAndCountsEveryMatch()
    {
        using var index = SearchIndex.Open(Storage(), Schema());
        Index(index,
            new IndexEntry("once").Add("Num", 1L).Add("Body", "apple pear plum fig"),
            new IndexEntry("twice").Add("Num", 1L).Add("Body", "apple apple"),
            new IndexEntry("low").Add("Num", 0L).Add("Body", "apple"),
            new IndexEntry("other").Add("Num", -5L).Add("Body", "pear"));

        using var searcher = index.OpenSearcher();
        var query = new FullTextQuery("Body", "apple");
        var page = searcher.Search(query, 0, 2, [new SortField("Num", Descending: true), SortField.Score]);
        Assert.Equal(3, page.TotalHits);
        Assert.Equal(["twice", "once"], page.Hits.Select(h => h.Key));
        Assert.True(page.Hits[0].Score > page.Hits[1].Score);
        var none = searcher.Search(query, 0, 0, [new SortField("Num")]);
        Assert.Equal(3, none.TotalHits);
        Assert.Empty(none.Hits);
        Assert.Empty(searcher.Search(query, 5, 10, [new SortField("Num")]).Hits);
    }

    [Fact]
    public void Search_SortedAfterRandomUpdatesAndDeletes_MatchesTheOrderOfTheStoredValues()
    {
        var random = new Random(1234);
        using var index = SearchIndex.Open(Storage(), Schema());
        for (var round = 0; round < 4; round++)
        {
            using var batch = index.BeginBatch();
            for (var i = 0; i < 3000; i++)
            {
                var key = $"k{random.Next(5000)}";
                if (random.Next(10) == 0)
                {
                    batch.Delete(key);
                    continue;
                }
                var entry = new IndexEntry(key).Add("Name", key);
                for (var v = random.Next(4); v > 0; v--)
                {
                    if (random.Next(6) == 0)
                        entry.AddNull("Num");
                    else
                        entry.Add("Num", random.NextInt64(-1000, 1000));
                }
                batch.Add(entry);
            }
            batch.Commit();
        }

        using var searcher = index.OpenSearcher();
        var all = searcher.Search(MatchAllQuery.Instance, 0, int.MaxValue).Hits;
        var expected = all
            .Select(h => (h.Key, h.EntryId, Min: searcher.GetValues("Num", h.EntryId)?.Where(v => v.Type == FieldValueType.Long).Select(v => (long?)v.Long).Min()))
            .ToList();
        foreach (var (_, id, min) in expected)
            Assert.Equal(min, LongKey(searcher, "Num", id));
        var descending = expected.OrderByDescending(e => e.Min.HasValue).ThenByDescending(e => e.Min).ThenBy(e => e.EntryId).Take(100).Select(e => e.Key);
        Assert.Equal(descending, searcher.Search(MatchAllQuery.Instance, 0, 100, [new SortField("Num", Descending: true)]).Hits.Select(h => h.Key));
        var ascending = expected.OrderBy(e => e.Min.HasValue).ThenBy(e => e.Min).ThenBy(e => e.EntryId).Skip(500).Take(300).Select(e => e.Key);
        Assert.Equal(ascending, searcher.Search(MatchAllQuery.Instance, 500, 300, [new SortField("Num")]).Hits.Select(h => h.Key));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(20)]
    public void Search_SortedByNumber_ReadsEachBlockOwnValues_WhenBlocksBetweenAreEmptyOrFarApart(int emptyBlocks)
    {
        // Block 0 has values, then `emptyBlocks` blocks of entries without the field, then a block with values:
        // a sorted walk must neither read a neighbour's block for an empty one nor lose its place after a jump.
        using var index = SearchIndex.Open(Storage(), Schema());
        var block = NumericColumn.BlockSize;
        var total = block * (emptyBlocks + 2);
        using (var batch = index.BeginBatch())
        {
            for (var i = 0; i < total; i++)
            {
                var entry = new IndexEntry($"k{i:D6}").Add("Name", i % 7 == 0 ? "picked" : "other");
                var inEmptyBlock = i >= block && i < block * (emptyBlocks + 1);
                if (!inEmptyBlock)
                    entry.Add("Num", (i * 7919L) % 10_007);
                batch.Add(entry);
            }
            batch.Commit();
        }
        var expected = Enumerable.Range(0, total)
            .Where(i => i % 7 == 0)
            .Select(i => (Key: $"k{i:D6}", Value: i >= block && i < block * (emptyBlocks + 1) ? (long?)null : (i * 7919L) % 10_007, Id: i))
            .OrderBy(e => e.Value.HasValue).ThenBy(e => e.Value).ThenBy(e => e.Id)
            .Select(e => e.Key)
            .ToList();
        var query = new TermQuery("Name", FieldValue.From("picked"));
        Assert.Equal(expected.Take(50), SortedKeys(index, query, 0, 50, new SortField("Num")));
        Assert.Equal(expected.Skip(expected.Count - 60).Take(50), SortedKeys(index, query, expected.Count - 60, 50, new SortField("Num")));
    }

    /// <summary>Writes <paramref name="values"/> (entry id → sort key) to a new column "c" and commits.</summary>
    private static void WriteColumn(StorageEnvironment environment, Dictionary<long, ulong> values, bool decimals)
    {
        using var tx = environment.BeginWrite();
        var column = NumericColumn.ForSortKeys(tx.CreateTree("c"), decimals);
        foreach (var (id, value) in values)
            column.Set(id, value);
        column.Flush();
        tx.Commit();
    }

    [Theory]
    [InlineData(true, 13, 0)]
    [InlineData(true, 31, 0)]
    [InlineData(false, 13, 2)]
    public void Flush_KeepsBlocksInline_ForTermIdColumns(bool termIds, int bits, int overflowPages)
    {
        using var environment = StorageEnvironment.Open(StorageOptions.InMemory());
        const int entries = NumericColumn.BlockSize * 2;
        var random = new Random(bits);
        var values = Enumerable.Range(0, entries).Select(_ => (ulong)random.NextInt64(1L << (bits - 1), 1L << bits)).ToArray();
        // Each block of either size spans the whole width: codes of that many bits.
        for (var id = 0; id < entries; id += NumericColumn.TermIdBlockSize)
        {
            values[id] = 0;
            values[id + 1] = (1UL << bits) - 2;
        }
        using (var tx = environment.BeginWrite())
        {
            var tree = tx.CreateTree("o");
            var column = termIds ? NumericColumn.ForTermIds(tree) : NumericColumn.ForSortKeys(tree, decimals: false);
            for (var id = 0; id < entries; id++)
                column.Set(id, values[id]);
            column.Flush();
            tx.Commit();
        }
        using var read = environment.BeginRead();
        var stored = read.OpenTree("o")!;
        var reader = termIds ? NumericColumn.ForTermIds(stored) : NumericColumn.ForSortKeys(stored, decimals: false);
        Assert.Equal(termIds ? NumericColumn.TermIdBlockSize : NumericColumn.BlockSize, reader.EntriesPerBlock);
        // 2,048 codes of 13 bits are 3.3 KB, over a leaf's inline limit: a page each; 512 codes of up to 31 bits stay inline.
        Assert.Equal(overflowPages, stored.Header.OverflowPages);
        for (var id = 0; id < entries; id++)
        {
            Assert.True(reader.TryGet(id, out var value));
            Assert.Equal(values[id], value);
            Assert.True(reader.TryRead(reader.StoredBlock(reader.BlockOf(id)), id, out value));
            Assert.Equal(values[id], value);
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(9)]
    [InlineData(25)]
    [InlineData(56)]
    [InlineData(57)]
    [InlineData(58)]
    [InlineData(59)]
    [InlineData(63)]
    [InlineData(64)]
    public void TryGet_ValuesSpanningAnyNumberOfBits_ReadBackExactly(int bits)
    {
        // Values from a base up to the largest code a width allows, gaps without values, read both from the
        // batch's decoded blocks and from the stored ones (the sort's path), in two blocks.
        using var environment = StorageEnvironment.Open(Storage());
        var random = new Random(bits);
        var span = bits == 64 ? ulong.MaxValue : (1UL << bits) - 2;
        var lowest = bits == 64 ? 0 : ulong.MaxValue - span - (ulong)random.Next(1_000);
        var expected = new Dictionary<long, ulong>();
        for (long id = 0; id < NumericColumn.BlockSize * 2; id++)
        {
            if (random.Next(5) == 0)
                continue;
            var offset = (id % 97) switch
            {
                0 => 0UL,
                1 => span,
                _ => (ulong)random.NextInt64() % (span == ulong.MaxValue ? ulong.MaxValue : span + 1),
            };
            expected[id] = lowest + offset;
        }
        WriteColumn(environment, expected, decimals: false);
        using var read = environment.BeginRead();
        var stored = NumericColumn.ForSortKeys(read.OpenTree("c")!, decimals: false);
        var walked = NumericColumn.ForSortKeys(read.OpenTree("c")!, decimals: false);
        // A width byte, the base, then the codes in `bits` bits each, or a presence bit and 8 bytes per entry.
        var expectedLength = bits <= 57 ? 9 + (NumericColumn.BlockSize / 8 * bits) : 9 + (NumericColumn.BlockSize / 8) + (NumericColumn.BlockSize * 8);
        Assert.Equal(expectedLength, walked.StoredBlock(0).Length);
        for (long id = 0; id < NumericColumn.BlockSize * 2; id++)
        {
            var present = expected.TryGetValue(id, out var value);
            Assert.Equal(present, stored.TryGet(id, out var got));
            Assert.Equal(present, walked.TryRead(walked.StoredBlock(walked.BlockOf(id)), id, out var fromBlock));
            if (present)
            {
                Assert.Equal(value, got);
                Assert.Equal(value, fromBlock);
            }
        }
    }

    public static TheoryData<string, double[], bool> DecimalSets() => new()
    {
        { "prices in cents", [7.39, 12.34, 99.99, 2_980.0, 0.01, 150.5], true },
        { "whole numbers", [0, 1, 2, 1_000_000, 42], true },
        { "thousandths, negative", [-12.345, -0.001, 3.5, 0], true },
        { "a value with more places", [1.25, Math.PI], false },
        { "an infinity", [1.5, double.PositiveInfinity], false },
        { "too wide a range", [0.001, 1e12], false },
    };

    [Theory]
    [MemberData(nameof(DecimalSets))]
    public void TryGet_DoublesOfFewDecimalPlaces_ReadBackExactly_AndTakeFewerBytes(string name, double[] values, bool scaled)
    {
        using var environment = StorageEnvironment.Open(Storage());
        var expected = new Dictionary<long, ulong>();
        for (long id = 0; id < NumericColumn.BlockSize; id += 3)
            expected[id] = TermEncoding.DoubleKey(values[id % values.Length]);
        WriteColumn(environment, expected, decimals: true);
        using var read = environment.BeginRead();
        var stored = NumericColumn.ForSortKeys(read.OpenTree("c")!, decimals: false);
        for (long id = 0; id < NumericColumn.BlockSize; id++)
        {
            Assert.Equal(expected.TryGetValue(id, out var value), stored.TryGet(id, out var got));
            Assert.True(value == got, $"{name}: entry {id} read {TermEncoding.DoubleOfKey(got)} for {TermEncoding.DoubleOfKey(value)}");
        }
        // Scaled, a block takes at most 31 bits per entry; the doubles' own order-preserving bits span more here.
        var length = NumericColumn.ForSortKeys(read.OpenTree("c")!, decimals: false).StoredBlock(0).Length;
        Assert.Equal(scaled, length <= 9 + (NumericColumn.BlockSize / 8 * 31));
    }
}
