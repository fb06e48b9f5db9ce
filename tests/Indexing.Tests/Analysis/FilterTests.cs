using Folio.Indexing.Analysis;

namespace Folio.Indexing.Tests.Analysis;

public class FilterTests
{
    private static (bool Kept, string Term) Apply(TokenFilter filter, string input)
    {
        int capacity = Math.Max(input.Length * filter.MaxExpansion, 1);
        Span<char> space = new char[capacity];
        Span<char> scratch = new char[capacity];
        input.CopyTo(space);
        var term = new TermBuffer(space, scratch, input.Length);
        bool kept = filter.Apply(ref term);
        return (kept, term.Chars.ToString());
    }

    [Theory]
    [InlineData("HELLO", "hello")]
    [InlineData("MiXeD123", "mixed123")]
    [InlineData("ÀÉÎÕÜ", "àéîõü")]
    [InlineData("ΣΟΦΙΑ", "σοφια")]
    [InlineData("ПРИВЕТ", "привет")]
    [InlineData("\U00010400\U00010401", "\U00010428\U00010429")]
    public void LowerCase_LowersEveryCodePoint_Invariantly(string input, string expected)
    {
        Assert.Equal((true, expected), Apply(LowerCaseFilter.Instance, input));
    }

    [Fact]
    public void LowerCase_LeavesUnpairedSurrogates_AndLowersAroundThem()
    {
        Assert.Equal((true, "ab\uD800cd\uDC00e"), Apply(LowerCaseFilter.Instance, "AB\uD800CD\uDC00E"));
    }

    [Theory]
    [InlineData("café", "cafe")]
    [InlineData("Straße", "Strasse")]
    [InlineData("æther", "aether")]
    [InlineData("Ærø", "AEro")]
    [InlineData("smørrebrød", "smorrebrod")]
    [InlineData("œuvre", "oeuvre")]
    [InlineData("Łódź", "Lodz")]
    [InlineData("Þórr", "THorr")]
    [InlineData("crème brûlée", "creme brulee")]
    [InlineData("ĳssel", "ijssel")]
    [InlineData("ﬃx", "ffix")]
    [InlineData("don\u2019t", "don't")]
    [InlineData("cafe\u0301", "cafe")]
    [InlineData("co\u00ADoperate", "cooperate")]
    [InlineData("İıŞşĞğ", "IiSsGg")]
    [InlineData("ÀÁÂÃÄÅàáâãäåĀāĂăĄą", "AAAAAAaaaaaaAaAaAa")]
    [InlineData("ÇçĆćČčĎďĐđ", "CcCcCcDdDd")]
    [InlineData("ÈÉÊËèéêëĚěĘę", "EEEEeeeeEeEe")]
    [InlineData("ÌÍÎÏìíîï", "IIIIiiii")]
    [InlineData("ÑñŃńŇň", "NnNnNn")]
    [InlineData("ÒÓÔÕÖØòóôõöøŐő", "OOOOOOooooooOo")]
    [InlineData("ÙÚÛÜùúûüŮůŰű", "UUUUuuuuUuUu")]
    [InlineData("ÝýÿŸ", "YyyY")]
    [InlineData("ŠšŽžŹźŻż", "SsZzZzZz")]
    [InlineData("plain ascii 123", "plain ascii 123")]
    [InlineData("Москва", "Москва")]
    public void AsciiFolding_FoldsLatinLetters_ToAsciiEquivalents(string input, string expected)
    {
        Assert.Equal((true, expected), Apply(AsciiFoldingFilter.Instance, input));
        Assert.Equal(expected, AsciiFolding.Fold(input));
    }

    [Fact]
    public void AsciiFolding_ReturnsSameInstance_WhenNothingToFold()
    {
        const string Text = "nothing to fold";

        Assert.Same(Text, AsciiFolding.Fold(Text));
    }

    [Fact]
    public void AsciiFolding_ReturnsMinusOne_WhenDestinationTooShort()
    {
        Span<char> destination = stackalloc char[2];

        Assert.Equal(-1, AsciiFolding.Fold("ßß", destination));
    }

    [Fact]
    public void AsciiFolding_FoldsEveryLatinCharacter_ToAsciiOrLeavesIt()
    {
        for (char c = '\u00C0'; c <= '\u024F'; c++)
        {
            string? folded = AsciiFolding.FoldChar(c);
            if (folded is not null)
            {
                Assert.All(folded, f => Assert.True(f < 0x80, $"U+{(int)c:X4} folds to non-ASCII '{folded}'."));
            }
        }
    }

    [Theory]
    [InlineData("a")]
    [InlineData("the")]
    [InlineData("with")]
    [InlineData("there")]
    [InlineData("such")]
    public void StopFilter_RemovesEnglishStopWords(string word)
    {
        Assert.False(Apply(StopFilter.English, word).Kept);
        Assert.True(StopFilter.English.IsStopWord(word));
    }

    [Theory]
    [InlineData("The")]
    [InlineData("fox")]
    [InlineData("theirs")]
    [InlineData("")]
    public void StopFilter_KeepsOtherWords_IncludingDifferentCase(string word)
    {
        Assert.True(Apply(StopFilter.English, word).Kept);
    }

    [Fact]
    public void StopFilter_ContainsExactlyLuceneEnglishSet()
    {
        Assert.Equal(33, EnglishStopWords.Set.Count);
        Assert.Equal(EnglishStopWords.Words.Order(StringComparer.Ordinal), EnglishStopWords.Words);
    }

    [Fact]
    public void StopFilter_UsesCustomWords_WhenGiven()
    {
        var filter = new StopFilter(["foo", "bar"]);

        Assert.False(Apply(filter, "foo").Kept);
        Assert.True(Apply(filter, "the").Kept);
    }

    [Theory]
    [InlineData("running", "run")]
    [InlineData("caresses", "caress")]
    [InlineData("café", "café")]
    [InlineData("москвы", "москвы")]
    public void StemFilter_StemsAsciiTerms_AndLeavesOthers(string input, string expected)
    {
        Assert.Equal((true, expected), Apply(Porter2StemFilter.Instance, input));
    }
}
