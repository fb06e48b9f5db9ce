using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// A ranked full-text search is collected a window of ids at a time. Whatever the terms, the paging and
/// the gaps in the field lengths, it must give the hits, scores (to the bit), order and total that
/// walking the same query's iterator id by id gives.
/// </summary>
public class WindowedDisjunctionTests
{
    private const int Entries = 12_000;

    private static readonly string[] Words =
        ["apple", "banana", "cherry", "delta", "echo", "falcon", "garden", "harbor", "island", "jungle", "kettle", "lantern"];

    private static SearchIndex OpenIndex()
    {
        var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Body", FieldKind.FullText).Add("Rank", FieldKind.Long));
        var random = new Random(20261122);
        using var batch = index.BeginBatch();
        for (var i = 0; i < Entries; i++)
        {
            var entry = new IndexEntry($"e{i}").Add("Rank", (long)(i % 5));
            // Ids 4,096..6,143 (the third norms block) have no text at all, so that block is never written;
            // others have one or two values of a few words, skewed so that scores often tie.
            if (i is < 4096 or >= 6144)
            {
                entry.Add("Body", Sentence(random));
                if (random.Next(10) == 0)
                    entry.Add("Body", Sentence(random));
            }
            // Fields longer than the scores tabulated by length, one longer than a norm can hold.
            if (i % 1000 == 7)
                entry.Add("Body", string.Join(' ', Enumerable.Repeat("harbor island", 150 + i / 100)));
            if (i == 9_007)
                entry.Add("Body", "apple " + string.Join(' ', Enumerable.Repeat("kettle", 70_000)));
            batch.Add(entry);
        }
        batch.Commit();
        return index;
    }

    private static string Sentence(Random random)
    {
        var words = new string[1 + random.Next(6)];
        for (var w = 0; w < words.Length; w++)
            words[w] = Words[(int)Math.Min(Words.Length - 1, Math.Floor(-Math.Log(1 - random.NextDouble()) * 3))];
        return string.Join(' ', words);
    }

    private static List<(long Id, float Score)> WalkedOneByOne(IndexSearcher searcher, Query query)
    {
        var matches = searcher.Iterate(query);
        var all = new List<(long Id, float Score)>();
        while (matches.MoveNext())
            all.Add((matches.Current, matches.Score));
        return all;
    }

    [Theory]
    [InlineData("apple")]
    [InlineData("lantern")]
    [InlineData("apple banana")]
    [InlineData("cherry kettle")]
    [InlineData("banana delta falcon harbor")]
    [InlineData("apple apple jungle")]
    [InlineData("island kettle")]
    public void Search_ByScore_MatchesTheOneByOneWalk(string text)
    {
        using var index = OpenIndex();
        using var searcher = index.OpenSearcher();
        var query = new FullTextQuery("Body", text);
        var expected = WalkedOneByOne(searcher, query).OrderByDescending(m => m.Score).ThenBy(m => m.Id).ToList();
        Assert.NotEmpty(expected);

        foreach (var (skip, take) in new[] { (0, 25), (0, 1), (10, 7), (0, expected.Count + 5), (expected.Count - 3, 10) })
        {
            var page = searcher.Search(query, skip, take, [SortField.Score]);
            Assert.Equal(expected.Count, page.TotalHits);
            Assert.Equal(expected.Skip(skip).Take(take).ToList(), page.Hits.Select(h => (h.EntryId, h.Score)).ToList());
        }
    }

    [Fact]
    public void Search_ByScoreThenField_BreaksScoreTiesByTheField()
    {
        using var index = OpenIndex();
        using var searcher = index.OpenSearcher();
        var query = new FullTextQuery("Body", "apple cherry");
        var matches = WalkedOneByOne(searcher, query);
        var expected = matches.OrderByDescending(m => m.Score).ThenByDescending(m => m.Id % 5).ThenBy(m => m.Id).Take(40).ToList();

        var page = searcher.Search(query, 0, 40, [SortField.Score, new SortField("Rank", Descending: true)]);

        Assert.Equal(matches.Count, page.TotalHits);
        Assert.Equal(expected, page.Hits.Select(h => (h.EntryId, h.Score)).ToList());
    }

    [Fact]
    public void Search_ByScore_GivesTheSameAnswerAgain_WhenTheSearcherReusesItsWindow()
    {
        using var index = OpenIndex();
        using var searcher = index.OpenSearcher();
        var first = searcher.Search(new FullTextQuery("Body", "garden apple"), 0, 25, [SortField.Score]);
        searcher.Search(new FullTextQuery("Body", "banana"), 0, 25, [SortField.Score]);
        var again = searcher.Search(new FullTextQuery("Body", "garden apple"), 0, 25, [SortField.Score]);

        Assert.Equal(first.TotalHits, again.TotalHits);
        Assert.Equal(first.Hits, again.Hits);
    }
}
