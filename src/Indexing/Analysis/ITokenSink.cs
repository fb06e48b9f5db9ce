namespace Folio.Indexing.Analysis;

/// <summary>
/// Receives the tokens of one analysed value. Implement it on a struct and pass it by reference to
/// <see cref="Analyzer.Analyze{TSink}(ReadOnlySpan{char}, ref TSink)"/> so that the call is
/// specialised and nothing is allocated per token.
/// </summary>
public interface ITokenSink
{
    /// <summary>Called once per emitted token, in position order.</summary>
    /// <param name="token">The token; its term span is only valid during this call.</param>
    void OnToken(scoped Token token);
}
