namespace Folio.Indexing.Analysis;

/// <summary>
/// Word tokenizer, invariant lower-casing and ASCII folding, without stop words or stemming: for
/// text that is searched by word but is not English prose (names, tags, titles in any language).
/// </summary>
public sealed class SimpleAnalyzer : CustomAnalyzer
{
    /// <summary>Creates the analyzer.</summary>
    public SimpleAnalyzer()
        : base(WordTokenizer.Default, LowerCaseFilter.Instance, AsciiFoldingFilter.Instance)
    {
    }

    /// <summary>A shared instance.</summary>
    public static SimpleAnalyzer Instance { get; } = new();
}
