using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Indexing.Tests.Search;

/// <summary>More like this from an entry of the index: its full-text terms found through the postings (entries keep no token list).</summary>
public sealed class MoreLikeThisSourceTests
{
    private static SearchIndex Index()
    {
        var index = SearchIndex.Open(StorageOptions.InMemory(), new IndexSchema().Add("Body", FieldKind.FullText).Add("Tag", FieldKind.Exact));
        using var batch = index.BeginBatch();
        // The source's first four tokens are alpha and beta, twice each; gamma comes after them, twice too.
        batch.Add(new IndexEntry("s").Add("Body", "alpha beta beta alpha gamma gamma").Add("Tag", "source"));
        foreach (var word in new[] { "alpha", "beta", "gamma", "delta" })
        {
            for (var i = 0; i < 5; i++)
                batch.Add(new IndexEntry($"{word}{i}").Add("Body", $"{word} other{i}"));
        }
        batch.Commit();
        return index;
    }

    private static List<string> Like(SearchIndex index, MoreLikeThisOptions options)
    {
        using var searcher = index.OpenSearcher();
        var like = new MoreLikeThisQuery(new TermQuery("Tag", FieldValue.From("source")), [], ["Body"], options);
        return [.. searcher.Search(like, 0, 100).Hits.Select(h => h.Key).Where(k => k != "s").Select(k => k.TrimEnd('0', '1', '2', '3', '4')).Distinct().Order(StringComparer.Ordinal)];
    }

    [Fact]
    public void MoreLikeThis_TakesTheSourcesTermsWithTheirFrequencies_FromThePostings()
    {
        using var index = Index();
        var options = new MoreLikeThisOptions { MinimumTermFrequency = 2, MinimumDocumentFrequency = 1 };
        Assert.Equal(["alpha", "beta", "gamma"], Like(index, options));
        // Every term is in six entries: a least document frequency of seven leaves none.
        Assert.Empty(Like(index, options with { MinimumDocumentFrequency = 7 }));
        // Each term twice in the source: a least term frequency of three leaves none.
        Assert.Empty(Like(index, options with { MinimumTermFrequency = 3 }));
    }

    [Fact]
    public void MoreLikeThis_CountsOnlyTheSourcesFirstTokens_WhenItIsLongerThanTheLimit()
    {
        using var index = Index();
        var options = new MoreLikeThisOptions { MinimumTermFrequency = 2, MinimumDocumentFrequency = 1, MaximumNumberOfTokensParsed = 4 };
        Assert.Equal(["alpha", "beta"], Like(index, options));
        // Five tokens: gamma once, under the least term frequency of 2.
        Assert.Equal(["alpha", "beta"], Like(index, options with { MaximumNumberOfTokensParsed = 5 }));
        Assert.Equal(["alpha", "beta", "gamma"], Like(index, options with { MaximumNumberOfTokensParsed = 6 }));
        Assert.Equal(["alpha", "beta", "gamma"], Like(index, options with { MinimumTermFrequency = 1, MaximumNumberOfTokensParsed = 5 }));
        // No tokens to read: no terms, and no error.
        Assert.Empty(Like(index, options with { MinimumTermFrequency = 1, MaximumNumberOfTokensParsed = 0 }));
        Assert.Empty(Like(index, options with { MinimumTermFrequency = 1, MaximumNumberOfTokensParsed = -1 }));
    }
}
