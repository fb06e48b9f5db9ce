namespace Folio.Indexing.Analysis;

/// <summary>
/// Splits text into token boundaries. Tokenizers report offsets only; the analyzer copies the
/// characters into its term buffer, so a tokenizer is stateless and shareable.
/// </summary>
public abstract class Tokenizer
{
    /// <summary>The longest token (in UTF-16 code units) this tokenizer emits; longer words are split.</summary>
    public abstract int MaxTokenLength { get; }

    /// <summary>Finds the next token at or after <paramref name="offset"/>.</summary>
    /// <param name="text">The whole text being tokenized.</param>
    /// <param name="offset">Where to resume; advanced past the returned token (start at 0).</param>
    /// <param name="start">Index of the token's first code unit.</param>
    /// <param name="end">Index just past the token's last code unit.</param>
    /// <returns><see langword="false"/> when the text has no more tokens.</returns>
    public abstract bool TryNext(ReadOnlySpan<char> text, ref int offset, out int start, out int end);
}
