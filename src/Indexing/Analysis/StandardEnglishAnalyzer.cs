namespace Folio.Indexing.Analysis;

/// <summary>
/// The full-text analyzer for English: word tokenizer, invariant lower-casing, ASCII folding,
/// English stop words (leaving position gaps) and the Porter2 stemmer.
/// </summary>
public sealed class StandardEnglishAnalyzer : CustomAnalyzer
{
    /// <summary>Creates the analyzer with Lucene's English stop words.</summary>
    public StandardEnglishAnalyzer()
        : this(StopFilter.English)
    {
    }

    /// <summary>Creates the analyzer with a custom stop-word list.</summary>
    /// <param name="stopWords">Lower-case, folded stop words; an empty list disables stop-word removal.</param>
    public StandardEnglishAnalyzer(IEnumerable<string> stopWords)
        : this(new StopFilter(stopWords))
    {
    }

    private StandardEnglishAnalyzer(StopFilter stopFilter)
        : base(WordTokenizer.Default, LowerCaseFilter.Instance, AsciiFoldingFilter.Instance, stopFilter, Porter2StemFilter.Instance)
    {
    }

    /// <summary>A shared instance with the default stop words.</summary>
    public static StandardEnglishAnalyzer Instance { get; } = new();
}
