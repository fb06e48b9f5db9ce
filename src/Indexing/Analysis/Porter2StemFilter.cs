namespace Folio.Indexing.Analysis;

/// <summary>Stems terms with <see cref="Porter2Stemmer"/> (Snowball English).</summary>
/// <remarks>
/// Terms containing non-ASCII characters are left alone: the algorithm only knows English
/// letters and would strip "suffixes" from words in other scripts. Place it after lower-casing
/// and ASCII folding so accented English ("café") is stemmed too.
/// </remarks>
public sealed class Porter2StemFilter : TokenFilter
{
    /// <summary>The shared instance; the filter has no state.</summary>
    public static Porter2StemFilter Instance { get; } = new();

    /// <inheritdoc />
    public override bool Apply(ref TermBuffer term)
    {
        Span<char> chars = term.Chars;
        foreach (char c in chars)
        {
            if (c >= 0x80)
            {
                return true;
            }
        }

        term.Length = Porter2Stemmer.Stem(chars);
        return true;
    }
}
