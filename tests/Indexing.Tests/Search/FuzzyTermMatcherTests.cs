using System.Text;
using Folio.Indexing.Queries;

namespace Folio.Indexing.Tests.Search;

/// <summary>
/// The fuzzy matcher against a plain restricted Damerau-Levenshtein distance: over sorted terms (so it reuses the rows
/// of shared prefixes, and skips terms behind a row already past the limit) it accepts exactly the terms within the
/// edits whose similarity stays above 0, with the similarity Lucene gives them.
/// </summary>
public class FuzzyTermMatcherTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(2)]
    public void TryMatch_AgreesWithThePlainDistance_OverSortedTerms(int maxEdits)
    {
        var random = new Random(20_261_126 + maxEdits);
        for (var round = 0; round < 40; round++)
        {
            var query = Word(random);
            var terms = Enumerable.Range(0, 400).Select(_ => random.Next(3) == 0 ? Mutate(query, random) : Word(random)).Distinct()
                .Select(t => Encoding.UTF8.GetBytes(t)).OrderBy(t => t, Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b))).ToList();
            var matcher = new FuzzyTermMatcher(query, maxEdits);
            foreach (var term in terms)
            {
                var text = Encoding.UTF8.GetString(term);
                var distance = Distance(Points(query), Points(text));
                var shorter = Math.Min(Points(query).Length, Points(text).Length);
                var expected = distance == 0 || (distance <= maxEdits && distance < shorter);
                Assert.True(expected == matcher.TryMatch(term, out var edits, out var similarity), $"'{text}' against '{query}' (distance {distance})");
                if (expected)
                {
                    Assert.Equal(distance, edits);
                    Assert.Equal(distance == 0 ? 1f : 1f - ((float)distance / shorter), similarity);
                }
            }
        }
    }

    [Theory]
    [InlineData("handel", "handle", 1)]
    [InlineData("ernts hnadel", "ernst handel", 2)]
    [InlineData("rückseite", "ruckseite", 1)]
    [InlineData("𐐀dam", "dam", 1)]
    [InlineData("ab", "x", -1)]
    [InlineData("ab", "a", -1)]
    public void TryMatch_CountsTranspositionsAndCodePoints_AsLucene(string query, string term, int expected)
    {
        var matcher = new FuzzyTermMatcher(query, 2);
        Assert.Equal(expected >= 0, matcher.TryMatch(Encoding.UTF8.GetBytes(term), out var edits, out _));
        if (expected >= 0)
            Assert.Equal(expected, edits);
    }

    private static string Word(Random random) => new([.. Enumerable.Range(0, 1 + random.Next(7)).Select(_ => "abcdü"[random.Next(5)])]);

    private static string Mutate(string word, Random random)
    {
        var chars = word.ToList();
        for (var edits = random.Next(4); edits > 0; edits--)
        {
            var at = random.Next(chars.Count + 1);
            switch (random.Next(4))
            {
                case 0:
                    chars.Insert(at, "abcdü"[random.Next(5)]);
                    break;
                case 1 when at < chars.Count:
                    chars.RemoveAt(at);
                    break;
                case 2 when at + 1 < chars.Count:
                    (chars[at], chars[at + 1]) = (chars[at + 1], chars[at]);
                    break;
                case 3 when at < chars.Count:
                    chars[at] = "abcdü"[random.Next(5)];
                    break;
            }
        }
        return new string([.. chars]);
    }

    private static int[] Points(string text) => [.. text.EnumerateRunes().Select(r => r.Value)];

    /// <summary>The optimal string alignment distance, the whole table.</summary>
    private static int Distance(int[] a, int[] b)
    {
        var d = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++)
            d[i, 0] = i;
        for (var j = 0; j <= b.Length; j++)
            d[0, j] = j;
        for (var i = 1; i <= a.Length; i++)
        {
            for (var j = 1; j <= b.Length; j++)
            {
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                    d[i, j] = Math.Min(d[i, j], d[i - 2, j - 2] + 1);
            }
        }
        return d[a.Length, b.Length];
    }
}
