namespace Folio.Indexing.Analysis;

/// <summary>
/// One token produced by an <see cref="Analyzer"/>: the final term text, its position and the
/// UTF-16 offsets of the source text it came from.
/// </summary>
/// <remarks>
/// A ref struct because <see cref="Term"/> points into the analyzer's scratch buffer: it is valid
/// only during the <see cref="ITokenSink.OnToken"/> call that receives it. Copy it to keep it.
/// </remarks>
public readonly ref struct Token
{
    /// <summary>Creates a token.</summary>
    /// <param name="term">The analysed term text.</param>
    /// <param name="position">The zero-based position of the token in the field value.</param>
    /// <param name="positionIncrement">How far this position is past the previous token's (more than 1 after removed tokens).</param>
    /// <param name="startOffset">Index of the token's first UTF-16 code unit in the source text.</param>
    /// <param name="endOffset">Index just past the token's last UTF-16 code unit in the source text.</param>
    public Token(ReadOnlySpan<char> term, int position, int positionIncrement, int startOffset, int endOffset)
    {
        Term = term;
        Position = position;
        PositionIncrement = positionIncrement;
        StartOffset = startOffset;
        EndOffset = endOffset;
    }

    /// <summary>The analysed term text; only valid for the duration of the sink callback.</summary>
    public ReadOnlySpan<char> Term { get; }

    /// <summary>The zero-based position of the token; removed tokens (stop words) leave gaps.</summary>
    public int Position { get; }

    /// <summary>The distance from the previous emitted token's position (1 when nothing was removed in between).</summary>
    public int PositionIncrement { get; }

    /// <summary>Index of the token's first UTF-16 code unit in the analysed text.</summary>
    public int StartOffset { get; }

    /// <summary>Index just past the token's last UTF-16 code unit in the analysed text.</summary>
    public int EndOffset { get; }
}
