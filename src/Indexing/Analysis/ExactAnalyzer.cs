using System.Buffers;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Indexes the whole value as one term (like Lucene's KeywordAnalyzer), lower-cased with the
/// invariant culture unless case-sensitive: exact-match fields compare case-insensitively by
/// default, as users of document databases expect. An empty value yields one empty term so that
/// "equals empty string" can be queried.
/// </summary>
public sealed class ExactAnalyzer : Analyzer
{
    private const int MaxStackChars = 512;

    /// <summary>Creates the analyzer.</summary>
    /// <param name="caseSensitive"><see langword="true"/> to keep the value's case.</param>
    public ExactAnalyzer(bool caseSensitive = false)
    {
        IsCaseSensitive = caseSensitive;
    }

    /// <summary>The shared case-insensitive (default) instance.</summary>
    public static ExactAnalyzer CaseInsensitive { get; } = new(caseSensitive: false);

    /// <summary>The shared case-sensitive instance.</summary>
    public static ExactAnalyzer CaseSensitive { get; } = new(caseSensitive: true);

    /// <summary>Whether the value's case is kept.</summary>
    public bool IsCaseSensitive { get; }

    /// <inheritdoc />
    public override void Analyze<TSink>(ReadOnlySpan<char> text, ref TSink sink)
    {
        if (IsCaseSensitive || !LowerCaseFilter.HasUpperCase(text))
        {
            sink.OnToken(new Token(text, 0, 1, 0, text.Length));
            return;
        }

        char[]? rented = null;
        Span<char> buffer = text.Length <= MaxStackChars
            ? stackalloc char[text.Length]
            : (rented = ArrayPool<char>.Shared.Rent(text.Length));
        try
        {
            Span<char> lower = buffer[..text.Length];
            text.CopyTo(lower);
            LowerCaseFilter.ToLowerInvariant(lower);
            sink.OnToken(new Token(lower, 0, 1, 0, text.Length));
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<char>.Shared.Return(rented);
            }
        }
    }
}
