using System.Text;
using Folio.Indexing.Analysis;

namespace Folio.Indexing.Tests.Analysis;

public class Porter2StemmerTests
{
    private static IReadOnlyList<(string Word, string Stem)> LoadVocabulary()
    {
        using Stream stream = typeof(Porter2StemmerTests).Assembly
            .GetManifestResourceStream("Folio.Indexing.Tests.Analysis.porter2-vocabulary.txt")
            ?? throw new InvalidOperationException("The Porter2 vocabulary resource is missing.");
        using var reader = new StreamReader(stream, Encoding.UTF8);
        var pairs = new List<(string, string)>();
        while (reader.ReadLine() is { } line)
        {
            if (line.Length == 0 || line[0] == '#')
            {
                continue;
            }

            string[] parts = line.Split('\t');
            Assert.True(parts.Length == 2, $"Malformed vocabulary line: '{line}'");
            pairs.Add((parts[0], parts[1]));
        }

        return pairs;
    }

    [Fact]
    public void Stem_MatchesSnowballVocabulary_ForEveryListedWord()
    {
        IReadOnlyList<(string Word, string Stem)> vocabulary = LoadVocabulary();
        Assert.True(vocabulary.Count >= 300, $"Only {vocabulary.Count} pairs were loaded.");

        var failures = new List<string>();
        foreach ((string word, string expected) in vocabulary)
        {
            string actual = Porter2Stemmer.Stem(word);
            if (actual != expected)
            {
                failures.Add($"{word} -> {actual} (expected {expected})");
            }
        }

        Assert.True(failures.Count == 0, $"{failures.Count} of {vocabulary.Count} stems differ:\n" + string.Join("\n", failures));
    }

    [Theory]
    [InlineData("skis", "ski")]
    [InlineData("skies", "sky")]
    [InlineData("dying", "die")]
    [InlineData("news", "news")]
    [InlineData("andes", "andes")]
    public void Stem_ReturnsFixedForm_ForExceptionalWords(string word, string expected)
    {
        Assert.Equal(expected, Porter2Stemmer.Stem(word));
    }

    [Theory]
    [InlineData("generously", "generous")]
    [InlineData("communication", "communic")]
    [InlineData("arsenic", "arsenic")]
    public void Stem_UsesFixedR1_ForSpecialPrefixes(string word, string expected)
    {
        Assert.Equal(expected, Porter2Stemmer.Stem(word));
    }

    [Theory]
    [InlineData("a", "a")]
    [InlineData("is", "is")]
    [InlineData("", "")]
    public void Stem_LeavesWordUnchanged_WhenShorterThanThreeLetters(string word, string expected)
    {
        Assert.Equal(expected, Porter2Stemmer.Stem(word));
    }

    [Theory]
    [InlineData("john's", "john")]
    [InlineData("'tis", "tis")]
    [InlineData("dogs'", "dog")]
    [InlineData("'''", "'")]
    public void Stem_RemovesApostrophes_WhenPossessiveOrLeading(string word, string expected)
    {
        Assert.Equal(expected, Porter2Stemmer.Stem(word));
    }

    [Theory]
    [InlineData("yellow", "yellow")]
    [InlineData("saying", "say")]
    [InlineData("crying", "cri")]
    [InlineData("toys", "toy")]
    public void Stem_TreatsConsonantYAsNonVowel_AndRestoresLowerCaseY(string word, string expected)
    {
        Assert.Equal(expected, Porter2Stemmer.Stem(word));
    }

    [Fact]
    public void Stem_WritesStemInPlace_AndReturnsItsLength()
    {
        Span<char> buffer = "running".ToCharArray();

        int length = Porter2Stemmer.Stem(buffer);

        Assert.Equal("run", buffer[..length].ToString());
    }

    [Theory]
    [InlineData("''''''")]
    [InlineData("'s's's")]
    [InlineData("yyyyyy")]
    [InlineData("123.456")]
    [InlineData("eeeeeeeeed")]
    [InlineData("ied")]
    [InlineData("'ies")]
    [InlineData("sss")]
    public void Stem_DoesNotThrow_OnUnusualInput(string word)
    {
        string stem = Porter2Stemmer.Stem(word);

        Assert.True(stem.Length <= word.Length);
    }

    [Fact]
    public void Stem_NeverThrowsOrGrows_ForAllShortAsciiWords()
    {
        // Every word of up to four characters over an alphabet that exercises the suffix rules.
        const string Alphabet = "aeiysdlgt'";
        Span<char> buffer = stackalloc char[4];
        for (int length = 0; length <= 4; length++)
        {
            int combinations = (int)Math.Pow(Alphabet.Length, length);
            for (int n = 0; n < combinations; n++)
            {
                int value = n;
                for (int i = 0; i < length; i++)
                {
                    buffer[i] = Alphabet[value % Alphabet.Length];
                    value /= Alphabet.Length;
                }

                int stemmed = Porter2Stemmer.Stem(buffer[..length]);
                Assert.InRange(stemmed, 0, length);
            }
        }
    }
}
