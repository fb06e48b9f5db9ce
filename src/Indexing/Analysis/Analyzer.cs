namespace Folio.Indexing.Analysis;

/// <summary>
/// Turns a field value into the terms that are indexed or searched for. Analyzers are immutable
/// and safe to share between threads: all per-call state lives on the caller's stack.
/// </summary>
public abstract class Analyzer
{
    /// <summary>
    /// Analyses <paramref name="text"/> and hands every token to <paramref name="sink"/> in order.
    /// This is the indexing hot path: it allocates nothing per token.
    /// </summary>
    /// <typeparam name="TSink">The sink type; a struct (or ref struct) avoids interface dispatch.</typeparam>
    /// <param name="text">The field value; any UTF-16, including unpaired surrogates.</param>
    /// <param name="sink">Receives the tokens.</param>
    public abstract void Analyze<TSink>(ReadOnlySpan<char> text, ref TSink sink)
        where TSink : ITokenSink, allows ref struct;

    /// <summary>
    /// Analyses <paramref name="text"/> into a new list. Allocates a string per token, so it is meant
    /// for query parsing and tests, not for indexing.
    /// </summary>
    /// <param name="text">The value to analyse.</param>
    /// <returns>The tokens in position order.</returns>
    public List<AnalyzedToken> AnalyzeToList(ReadOnlySpan<char> text)
    {
        var sink = new ListSink(new List<AnalyzedToken>());
        Analyze(text, ref sink);
        return sink.Tokens;
    }

    private readonly struct ListSink(List<AnalyzedToken> tokens) : ITokenSink
    {
        public List<AnalyzedToken> Tokens { get; } = tokens;

        public void OnToken(scoped Token token) =>
            Tokens.Add(new AnalyzedToken(token.Term.ToString(), token.Position, token.StartOffset, token.EndOffset));
    }
}
