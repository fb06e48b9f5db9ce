using System.Text;
using Folio.Indexing.Analysis;

namespace Folio.Indexing.Tests.Analysis;

public class WordTokenizerTests
{
    private static List<string> Tokenize(string text, WordTokenizer? tokenizer = null)
    {
        tokenizer ??= WordTokenizer.Default;
        var tokens = new List<string>();
        int offset = 0;
        while (tokenizer.TryNext(text, ref offset, out int start, out int end))
        {
            Assert.True(start < end, "Tokens are never empty.");
            Assert.Equal(end, offset);
            tokens.Add(text[start..end]);
        }

        return tokens;
    }

    [Theory]
    [InlineData("")]
    [InlineData("   \t\r\n  ")]
    [InlineData("\u00A0\u2003\u3000")]
    [InlineData("!?.,;:-()[]{}\"'/\\@#$%^&*+=<>|~`")]
    [InlineData("___")]
    [InlineData("\u200B\uFEFF")]
    public void TryNext_ReturnsNoTokens_WhenTextHasNoWords(string text)
    {
        Assert.Empty(Tokenize(text));
    }

    [Fact]
    public void TryNext_SplitsOnSpacesAndPunctuation_WhenTextIsPlainEnglish()
    {
        Assert.Equal(["The", "quick", "brown", "fox", "jumped"], Tokenize("The quick (brown) fox—jumped!"));
    }

    [Theory]
    [InlineData("don't", new[] { "don't" })]
    [InlineData("O'Neil's", new[] { "O'Neil's" })]
    [InlineData("don\u2019t", new[] { "don\u2019t" })]
    [InlineData("dogs' bones", new[] { "dogs", "bones" })]
    [InlineData("'quoted'", new[] { "quoted" })]
    [InlineData("rock 'n' roll", new[] { "rock", "n", "roll" })]
    [InlineData("a''b", new[] { "a", "b" })]
    public void TryNext_KeepsApostrophe_OnlyBetweenLetters(string text, string[] expected)
    {
        Assert.Equal(expected, Tokenize(text));
    }

    [Theory]
    [InlineData("pi is 3.14", new[] { "pi", "is", "3.14" })]
    [InlineData("1,000,000 people", new[] { "1,000,000", "people" })]
    [InlineData("version 1.2.3.", new[] { "version", "1.2.3" })]
    [InlineData("costs 5. Next", new[] { "costs", "5", "Next" })]
    [InlineData(".5 and 5.", new[] { "5", "and", "5" })]
    [InlineData("3rd 42nd mp3", new[] { "3rd", "42nd", "mp3" })]
    [InlineData("1,a", new[] { "1", "a" })]
    [InlineData("-7", new[] { "7" })]
    public void TryNext_KeepsDecimalPointAndGrouping_OnlyBetweenDigits(string text, string[] expected)
    {
        Assert.Equal(expected, Tokenize(text));
    }

    [Theory]
    [InlineData("e.g. U.S.A.", new[] { "e.g", "U.S.A" })]
    [InlineData("snake_case _id", new[] { "snake_case", "_id" })]
    [InlineData("key:value", new[] { "key", "value" })]
    [InlineData("user@example.com", new[] { "user", "example.com" })]
    [InlineData("co-operate", new[] { "co", "operate" })]
    public void TryNext_FollowsWordBoundaryRules_ForInnerPunctuation(string text, string[] expected)
    {
        Assert.Equal(expected, Tokenize(text));
    }

    [Fact]
    public void TryNext_KeepsAccentedAndNonLatinLetters_InOneWord()
    {
        Assert.Equal(["Café", "naïve", "Straße", "Москва", "Ἀθῆναι"], Tokenize("Café naïve Straße Москва Ἀθῆναι"));
    }

    [Fact]
    public void TryNext_KeepsCombiningMarks_WithTheirBaseLetter()
    {
        string decomposed = "cafe\u0301 ok";

        Assert.Equal(["cafe\u0301", "ok"], Tokenize(decomposed));
    }

    [Fact]
    public void TryNext_EmitsEachIdeograph_AsItsOwnToken()
    {
        Assert.Equal(["中", "文", "分", "词", "test"], Tokenize("中文分词 test"));
    }

    [Fact]
    public void TryNext_KeepsKatakanaRun_AsOneToken()
    {
        Assert.Equal(["コンピュータ", "を", "使"], Tokenize("コンピュータを使"));
    }

    [Fact]
    public void TryNext_HandlesSurrogatePairLetters_AsWordCharacters()
    {
        // U+1D4B3 MATHEMATICAL SCRIPT CAPITAL X and U+10428 DESERET SMALL LONG I are letters outside the BMP.
        string text = "\U0001D4B3yz \U00010428\U00010429 \U00020000x";

        Assert.Equal(["\U0001D4B3yz", "\U00010428\U00010429", "\U00020000", "x"], Tokenize(text));
    }

    [Fact]
    public void TryNext_EmitsEmojiSequences_AsSingleTokens()
    {
        string family = "\U0001F468\u200D\U0001F469\u200D\U0001F467";
        string thumbsUpDark = "\U0001F44D\U0001F3FF";
        string flag = "\U0001F1EB\U0001F1F7";
        string heart = "\u2764\uFE0F";

        List<string> tokens = Tokenize($"hi{family} {thumbsUpDark}{flag}{heart} \U0001F600\U0001F600");

        Assert.Equal(["hi", family, thumbsUpDark, flag, heart, "\U0001F600", "\U0001F600"], tokens);
    }

    [Fact]
    public void TryNext_TreatsUnpairedSurrogates_AsSeparators()
    {
        // Listed here rather than as InlineData: xUnit cannot serialize lone surrogates distinctly.
        (string Text, string[] Expected)[] cases =
        [
            ("\uD800", []),
            ("\uDC00", []),
            ("ab\uD800cd", ["ab", "cd"]),
            ("ab\uDC00\uD800cd", ["ab", "cd"]),
            ("abc\uD83D", ["abc"]),
            ("\uDE00abc", ["abc"]),
            ("x\uD83D\uD83D\uDE00y", ["x", "\U0001F600", "y"]),
        ];

        foreach ((string text, string[] expected) in cases)
        {
            Assert.Equal(expected, Tokenize(text));
        }
    }

    [Fact]
    public void TryNext_ReportsOffsets_IntoOriginalText()
    {
        const string Text = "  Hello, \U0001D4B3orld! 3.14";
        var spans = new List<(int Start, int End)>();
        int offset = 0;
        while (WordTokenizer.Default.TryNext(Text, ref offset, out int start, out int end))
        {
            spans.Add((start, end));
        }

        Assert.Equal([(2, 7), (9, 15), (17, 21)], spans);
    }

    [Fact]
    public void TryNext_SplitsWordsLongerThanMaximum_IntoChunks()
    {
        var tokenizer = new WordTokenizer(maxTokenLength: 4);

        Assert.Equal(["abcd", "efgh", "ij", "ok"], Tokenize("abcdefghij ok", tokenizer));
    }

    [Fact]
    public void TryNext_NeverSplitsSurrogatePair_WhenChunkingLongWords()
    {
        var tokenizer = new WordTokenizer(maxTokenLength: 3);
        string text = "a\U0001D4B3\U0001D4B3b";

        List<string> tokens = Tokenize(text, tokenizer);

        Assert.Equal(["a\U0001D4B3", "\U0001D4B3b"], tokens);
    }

    [Fact]
    public void TryNext_ResumesFromGivenOffset()
    {
        int offset = 6;

        bool found = WordTokenizer.Default.TryNext("alpha beta", ref offset, out int start, out int end);

        Assert.True(found);
        Assert.Equal((6, 10), (start, end));
    }

    [Fact]
    public void TryNext_HandlesOneMegabyteOfText_WithoutFailing()
    {
        var builder = new StringBuilder(1 << 20);
        string[] words = ["lorem", "ipsum", "don't", "3.14", "Straße", "\U0001F600", "中", "\uD800", "dolor"];
        int i = 0;
        while (builder.Length < 1 << 20)
        {
            builder.Append(words[i++ % words.Length]).Append(' ');
        }

        string text = builder.ToString();
        int count = Tokenize(text).Count;

        // Every word but the unpaired surrogate is a token.
        Assert.Equal(i - (i / words.Length) - (i % words.Length > 7 ? 1 : 0), count);
    }

    [Fact]
    public void TryNext_ChunksOneMegabyteWord_AtMaximumTokenLength()
    {
        string text = new('a', 1 << 20);

        List<string> tokens = Tokenize(text);

        Assert.Equal((1 << 20) / 255 + 1, tokens.Count);
        Assert.All(tokens, token => Assert.InRange(token.Length, 1, 255));
    }

    [Fact]
    public void TryNext_DoesNotThrow_OnRandomUtf16()
    {
        var random = new Random(1234);
        char[] chars = new char[64 * 1024];
        for (int i = 0; i < chars.Length; i++)
        {
            chars[i] = (char)random.Next(0, 0x10000);
        }

        string text = new(chars);
        int offset = 0;
        int previousEnd = 0;
        while (WordTokenizer.Default.TryNext(text, ref offset, out int start, out int end))
        {
            Assert.True(start >= previousEnd && end > start && end <= text.Length);
            previousEnd = end;
        }
    }
}
