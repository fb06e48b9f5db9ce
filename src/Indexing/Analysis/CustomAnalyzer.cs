using System.Buffers;

namespace Folio.Indexing.Analysis;

/// <summary>
/// An analyzer built from a <see cref="Tokenizer"/> and a chain of <see cref="TokenFilter"/>s,
/// the building block of the standard analyzers. Tokens a filter removes leave a position gap.
/// Terms that filters reduce to nothing are dropped the same way.
/// </summary>
public class CustomAnalyzer : Analyzer
{
    // Buffers up to this many chars live on the stack; only keyword-sized tokens need the pool.
    private const int MaxStackChars = 2048;

    private readonly Tokenizer _tokenizer;
    private readonly TokenFilter[] _filters;
    private readonly int _expansion;

    /// <summary>Creates an analyzer.</summary>
    /// <param name="tokenizer">Splits the text into tokens.</param>
    /// <param name="filters">Applied to each token in order.</param>
    public CustomAnalyzer(Tokenizer tokenizer, params ReadOnlySpan<TokenFilter> filters)
    {
        ArgumentNullException.ThrowIfNull(tokenizer);
        _tokenizer = tokenizer;
        _filters = filters.ToArray();
        long expansion = 1;
        foreach (TokenFilter filter in _filters)
        {
            ArgumentNullException.ThrowIfNull(filter, nameof(filters));
            expansion = Math.Min(expansion * Math.Max(filter.MaxExpansion, 1), 1 << 16);
        }

        _expansion = (int)expansion;
    }

    /// <summary>The tokenizer this analyzer starts with.</summary>
    public Tokenizer Tokenizer => _tokenizer;

    /// <summary>The filters applied to each token, in order.</summary>
    public IReadOnlyList<TokenFilter> Filters => _filters;

    /// <inheritdoc />
    public override void Analyze<TSink>(ReadOnlySpan<char> text, ref TSink sink)
    {
        if (text.IsEmpty)
        {
            return;
        }

        int longestToken = Math.Min(text.Length, _tokenizer.MaxTokenLength);
        int termCapacity = checked(longestToken * _expansion);
        int needed = checked(termCapacity * 2);
        char[]? rented = null;
        Span<char> buffer = needed <= MaxStackChars
            ? stackalloc char[needed]
            : (rented = ArrayPool<char>.Shared.Rent(needed));
        Span<char> space = buffer[..termCapacity];
        Span<char> scratch = buffer.Slice(termCapacity, termCapacity);

        try
        {
            int offset = 0;
            int position = -1;
            int increment = 0;
            TokenFilter[] filters = _filters;
            while (_tokenizer.TryNext(text, ref offset, out int start, out int end))
            {
                increment++;
                ReadOnlySpan<char> source = text[start..end];
                source.CopyTo(space);
                var term = new TermBuffer(space, scratch, source.Length);

                bool keep = true;
                for (int f = 0; f < filters.Length; f++)
                {
                    if (!filters[f].Apply(ref term))
                    {
                        keep = false;
                        break;
                    }
                }

                if (!keep || term.Length == 0)
                {
                    continue;
                }

                position += increment;
                sink.OnToken(new Token(term.Chars, position, increment, start, end));
                increment = 0;
            }
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
