using Lucene.Net.Analysis;
using Lucene.Net.Analysis.TokenAttributes;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// Hands Lucene the tokens Folio's analysis already made for one field of one entry (terms and positions, every value
/// of a multi-valued field with its gap), so both engines index the very same terms at the very same positions.
/// </summary>
internal sealed class PreAnalyzedTokenStream : TokenStream
{
    private readonly ICharTermAttribute _term;
    private readonly IPositionIncrementAttribute _increment;
    private readonly List<(string Term, int Position)> _tokens;
    private int _next;
    private int _lastPosition = -1;

    /// <summary>Streams <paramref name="tokens"/>, sorted by position.</summary>
    public PreAnalyzedTokenStream(List<(string Term, int Position)> tokens)
    {
        _tokens = tokens;
        _term = AddAttribute<ICharTermAttribute>();
        _increment = AddAttribute<IPositionIncrementAttribute>();
    }

    /// <inheritdoc/>
    public override bool IncrementToken()
    {
        if (_next >= _tokens.Count)
            return false;
        ClearAttributes();
        var (term, position) = _tokens[_next++];
        _term.SetEmpty().Append(term);
        _increment.PositionIncrement = position - _lastPosition;
        _lastPosition = position;
        return true;
    }

    /// <inheritdoc/>
    public override void Reset()
    {
        base.Reset();
        _next = 0;
        _lastPosition = -1;
    }
}
