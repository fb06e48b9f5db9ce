using Folio.Indexing.Querying.Suggestions;

namespace Folio.Indexing.Tests.Querying;

/// <summary>The similarity measures of suggestions, against values worked out by hand from their definitions.</summary>
public class StringSimilarityTests
{
    private readonly StringSimilarity _similarity = new();

    [Theory]
    // oern -> oren: two substitutions over 4 characters.
    [InlineData("oern", "oren", 0.5f)]
    // kitten -> sitting: k/s, e/i, +g: 3 edits over 7.
    [InlineData("kitten", "sitting", 1f - 3f / 7f)]
    [InlineData("same", "same", 1f)]
    [InlineData("", "abc", 0f)]
    public void Levenshtein_IsOneMinusEditsOverTheLongerLength(string a, string b, float expected) =>
        Assert.Equal(expected, _similarity.Levenshtein(a, b), 4);

    [Theory]
    // martha/marhta: 6 matches, 1 transposition: Jaro 0.9444; prefix 3, scale 0.1: 0.9444 + 0.3 * 0.0556.
    [InlineData("martha", "marhta", 0.96111f)]
    // dixon/dicksonx: 4 matches, none out of order: Jaro (4/5 + 4/8 + 1) / 3 = 0.7667; prefix 2: + 0.2 * 0.2333.
    [InlineData("dixon", "dicksonx", 0.81333f)]
    // jack/davi: only 'a' matches: Jaro (1/4 + 1/4 + 1) / 3 = 0.5, under 0.7 so no prefix bonus.
    [InlineData("jack", "davi", 0.5f)]
    [InlineData("abc", "xyz", 0f)]
    public void JaroWinkler_AddsThePrefixBonus_OnlyAboveThreshold(string a, string b, float expected) =>
        Assert.Equal(expected, _similarity.JaroWinkler(a, b), 4);

    [Theory]
    // Bigrams with a front pad: (_a)(ab)(bc) against (_a)(ab)(bd): the last pair differs in one of two characters: 0.5 over 3.
    [InlineData("abc", "abd", 1f - 0.5f / 3f)]
    [InlineData("abc", "abc", 1f)]
    // Shorter than a bigram: the share of equal characters in place.
    [InlineData("a", "ab", 0.5f)]
    // ab against ba: (_a)(ab) against (_b)(ba): the first pair differs in one of two characters (0.5), the second in
    // both (1); no path through insertions is cheaper: 1.5 over 2.
    [InlineData("ab", "ba", 0.25f)]
    public void NGram_IsKondraksBigramDistance(string a, string b, float expected) =>
        Assert.Equal(expected, _similarity.NGram(a, b), 4);

    [Fact]
    public void Measure_IsSymmetric_ForEachDistance()
    {
        foreach (var distance in Enum.GetValues<SuggestionDistance>())
        {
            foreach (var (a, b) in new[] { ("johne", "johnson"), ("davi", "smith"), ("steinback", "steinbeck") })
                Assert.Equal(_similarity.Measure(distance, a, b), _similarity.Measure(distance, b, a), 5);
        }
    }
}
