using Folio.Indexing.Analysis;

namespace Folio.Indexing.Tests.Analysis;

public class AnalyzerTests
{
    private static string[] Terms(Analyzer analyzer, string text) =>
        analyzer.AnalyzeToList(text).Select(t => t.Term).ToArray();

    [Fact]
    public void StandardEnglish_LowersFoldsRemovesStopWordsAndStems()
    {
        string[] terms = Terms(StandardEnglishAnalyzer.Instance, "The Cafés were running and JUMPING over the lazy dogs' Kennels");

        Assert.Equal(["cafe", "were", "run", "jump", "over", "lazi", "dog", "kennel"], terms);
    }

    [Fact]
    public void StandardEnglish_LeavesPositionGaps_ForRemovedStopWords()
    {
        List<AnalyzedToken> tokens = StandardEnglishAnalyzer.Instance.AnalyzeToList("the quick fox is in the house");

        Assert.Equal(
            [
                new AnalyzedToken("quick", 1, 4, 9),
                new AnalyzedToken("fox", 2, 10, 13),
                new AnalyzedToken("hous", 6, 24, 29),
            ],
            tokens);
    }

    [Fact]
    public void StandardEnglish_ReportsPositionIncrements_ThroughSink()
    {
        var sink = new RecordingSink([]);

        StandardEnglishAnalyzer.Instance.Analyze("to be or not to be, question", ref sink);

        Assert.Equal([("question", 6, 7)], sink.Tokens);
    }

    [Fact]
    public void StandardEnglish_KeepsOffsetsOfOriginalText_WhenTermChanges()
    {
        const string Text = "Straße \U0001D4B3 naïvely";

        List<AnalyzedToken> tokens = StandardEnglishAnalyzer.Instance.AnalyzeToList(Text);

        Assert.Equal("strass", tokens[0].Term);
        Assert.Equal("Straße", Text[tokens[0].StartOffset..tokens[0].EndOffset]);
        Assert.Equal("naïvely", Text[tokens[^1].StartOffset..tokens[^1].EndOffset]);
        Assert.Equal("naiv", tokens[^1].Term);
    }

    [Fact]
    public void StandardEnglish_EmitsNothing_WhenTextHasNoIndexableWords()
    {
        // Lone surrogates cannot round-trip through xUnit's test-case serialization, so the
        // inputs are listed here rather than as InlineData.
        string[] texts = ["", "   ", "the and of", "\uDFFF\uD800 \uDC00", "?!\uD800"];

        Assert.All(texts, text => Assert.Empty(StandardEnglishAnalyzer.Instance.AnalyzeToList(text)));
    }

    [Fact]
    public void StandardEnglish_MatchesQueryAndDocumentForms()
    {
        string[] document = Terms(StandardEnglishAnalyzer.Instance, "Generously connected communities");
        string[] query = Terms(StandardEnglishAnalyzer.Instance, "generous connection COMMUNITY");

        Assert.Equal(document, query);
    }

    [Fact]
    public void StandardEnglish_UsesCustomStopWords_WhenGiven()
    {
        var analyzer = new StandardEnglishAnalyzer(["quick"]);

        Assert.Equal(["the", "fox"], Terms(analyzer, "the quick fox"));
    }

    [Fact]
    public void StandardEnglish_HandlesOneMegabyteValue()
    {
        string text = string.Concat(Enumerable.Repeat("Searching documents quickly is the whole point. ", 22_000));

        List<AnalyzedToken> tokens = StandardEnglishAnalyzer.Instance.AnalyzeToList(text);

        Assert.True(text.Length >= 1 << 20);
        // Seven words a sentence, two of them ("is", "the") stop words.
        Assert.Equal(22_000 * 5, tokens.Count);
        Assert.Equal(22_000 * 7 - 1, tokens[^1].Position);
    }

    [Fact]
    public void Simple_LowersAndFolds_WithoutStopWordsOrStemming()
    {
        Assert.Equal(["the", "cafes", "of", "zurich"], Terms(SimpleAnalyzer.Instance, "The Cafés of Zürich"));
    }

    [Fact]
    public void Simple_AssignsConsecutivePositions()
    {
        List<AnalyzedToken> tokens = SimpleAnalyzer.Instance.AnalyzeToList("a b c");

        Assert.Equal([0, 1, 2], tokens.Select(t => t.Position));
    }

    [Theory]
    [InlineData("Hello World", "hello world")]
    [InlineData("ORDERS/1-A", "orders/1-a")]
    [InlineData("Ünïcödé \U00010400", "ünïcödé \U00010428")]
    [InlineData("already lower", "already lower")]
    public void Exact_LowerCasesWholeValue_ByDefault(string text, string expected)
    {
        List<AnalyzedToken> tokens = ExactAnalyzer.CaseInsensitive.AnalyzeToList(text);

        Assert.Equal([new AnalyzedToken(expected, 0, 0, text.Length)], tokens);
    }

    [Fact]
    public void Exact_KeepsCase_WhenCaseSensitive()
    {
        List<AnalyzedToken> tokens = new ExactAnalyzer(caseSensitive: true).AnalyzeToList("Hello World");

        Assert.Equal([new AnalyzedToken("Hello World", 0, 0, 11)], tokens);
    }

    [Fact]
    public void Exact_EmitsOneEmptyTerm_ForEmptyValue()
    {
        Assert.Equal([new AnalyzedToken("", 0, 0, 0)], ExactAnalyzer.CaseInsensitive.AnalyzeToList(""));
    }

    [Fact]
    public void Exact_HandlesLongValues_BeyondStackBuffer()
    {
        string text = new('X', 100_000);

        List<AnalyzedToken> tokens = ExactAnalyzer.CaseInsensitive.AnalyzeToList(text);

        Assert.Equal(new string('x', 100_000), Assert.Single(tokens).Term);
    }

    [Fact]
    public void Custom_ChainsGivenFilters_InOrder()
    {
        var analyzer = new CustomAnalyzer(new WordTokenizer(maxTokenLength: 5), LowerCaseFilter.Instance);

        Assert.Equal(["hello", "world", "abcde", "f"], Terms(analyzer, "Hello WORLD abcdef"));
    }

    [Fact]
    public void Custom_WithKeywordSizedTokenizer_UsesPooledBuffers()
    {
        var analyzer = new CustomAnalyzer(new WordTokenizer(maxTokenLength: 1 << 20), LowerCaseFilter.Instance, AsciiFoldingFilter.Instance);
        string text = new('É', 10_000);

        Assert.Equal(new string('e', 10_000), Assert.Single(Terms(analyzer, text)));
    }

    [Fact]
    public void Analyze_DoesNotAllocatePerToken_WithStructSink()
    {
        string text = string.Concat(Enumerable.Repeat("The Cafés were running over the lazy dogs' kennels; 3.14 don't ", 500));
        var sink = new CountingSink();
        StandardEnglishAnalyzer.Instance.Analyze(text, ref sink);
        SimpleAnalyzer.Instance.Analyze(text, ref sink);
        ExactAnalyzer.CaseInsensitive.Analyze(text, ref sink);

        long before = GC.GetAllocatedBytesForCurrentThread();
        sink = new CountingSink();
        StandardEnglishAnalyzer.Instance.Analyze(text, ref sink);
        SimpleAnalyzer.Instance.Analyze(text, ref sink);
        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(sink.Count > 5_000);
        Assert.True(allocated < 1_000, $"Analysis allocated {allocated} bytes for {sink.Count} tokens.");
    }

    [Fact]
    public void FieldAnalyzers_ReturnsFieldAnalyzer_OrDefault()
    {
        var analyzers = new FieldAnalyzers(
            StandardEnglishAnalyzer.Instance,
            [new("Name", ExactAnalyzer.CaseInsensitive), new("Tags", SimpleAnalyzer.Instance)]);

        Assert.Same(ExactAnalyzer.CaseInsensitive, analyzers.For("Name"));
        Assert.Same(SimpleAnalyzer.Instance, analyzers.For("Tags".AsSpan()));
        Assert.Same(StandardEnglishAnalyzer.Instance, analyzers.For("Body"));
        Assert.Same(StandardEnglishAnalyzer.Instance, analyzers.For("name"));
    }

    private struct CountingSink : ITokenSink
    {
        public int Count;

        public void OnToken(scoped Token token) => Count += token.Term.Length > 0 ? 1 : 0;
    }

    private readonly struct RecordingSink(List<(string Term, int Position, int Increment)> tokens) : ITokenSink
    {
        public List<(string Term, int Position, int Increment)> Tokens { get; } = tokens;

        public void OnToken(scoped Token token) => Tokens.Add((token.Term.ToString(), token.Position, token.PositionIncrement));
    }
}
