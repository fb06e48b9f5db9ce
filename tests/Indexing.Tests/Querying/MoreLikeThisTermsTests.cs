using Folio.Indexing.Queries;

namespace Folio.Indexing.Tests.Querying;

public sealed class MoreLikeThisTermsTests
{
    // N = 10: idf(df) = 1 + ln(10 / (df + 1)).
    private static readonly List<MoreLikeThisCandidate> Candidates =
    [
        new("Body", "common", 4, 9),   // 4 × 1.000 = 4.00
        new("Body", "rare", 1, 1),     // 1 × 2.609 = 2.61
        new("Body", "twice", 2, 4),    // 2 × 1.693 = 3.39
        new("Body", "absent", 3, 0),   // in no entry: never a term
        new("Title", "rare", 2, 2),    // 2 × 2.204 = 4.41
        new("Body", "tiny", 5, 3),     // 5 × 1.916 = 9.58, 4 letters
    ];

    [Fact]
    public void Select_RanksByTfIdf_AndDropsTermsInNoEntry()
    {
        var terms = MoreLikeThisTerms.Select(Candidates, new MoreLikeThisOptions { MinimumTermFrequency = 1, MinimumDocumentFrequency = 1 }, 10);

        Assert.Equal(["Body:tiny", "Title:rare", "Body:common", "Body:twice", "Body:rare"], terms.Select(t => $"{t.Field}:{t.Term}"));
        Assert.All(terms, t => Assert.Equal(1f, t.Boost));
    }

    [Fact]
    public void Select_AppliesTheLimits()
    {
        var options = new MoreLikeThisOptions { MinimumTermFrequency = 2, MinimumDocumentFrequency = 3, MaximumDocumentFrequency = 8, MinimumWordLength = 5, MaximumQueryTerms = 1 };

        Assert.Equal(["twice"], MoreLikeThisTerms.Select(Candidates, options, 10).Select(t => t.Term));
        Assert.Equal(["tiny", "twice"], MoreLikeThisTerms.Select(Candidates, options with { MinimumWordLength = 0, MaximumQueryTerms = 5 }, 10).Select(t => t.Term));
        Assert.Equal(["tiny"], MoreLikeThisTerms.Select(Candidates, options with { MinimumWordLength = 0, MaximumDocumentFrequencyPercentage = 30 }, 10).Select(t => t.Term));
    }

    [Fact]
    public void Select_WithBoost_GivesEachTermItsScoreOverTheBest()
    {
        var terms = MoreLikeThisTerms.Select(Candidates, new MoreLikeThisOptions { MinimumTermFrequency = 1, MinimumDocumentFrequency = 1, Boost = true, BoostFactor = 2 }, 10);

        Assert.Equal(2f, terms[0].Boost);
        var expected = 2 * (4 * (1 + Math.Log(10 / 10.0))) / (5 * (1 + Math.Log(10 / 4.0)));
        Assert.Equal(expected, terms.Single(t => t.Term == "common").Boost, 5);
    }
}
