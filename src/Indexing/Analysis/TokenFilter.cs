namespace Folio.Indexing.Analysis;

/// <summary>
/// One step of an analysis chain: rewrites a term in place, or removes it. Filters must be
/// stateless (or immutable) because analyzers are shared between threads.
/// </summary>
public abstract class TokenFilter
{
    /// <summary>
    /// The most a filter can multiply a term's length by; the analyzer sizes its buffers with the
    /// product over the chain.
    /// </summary>
    public virtual int MaxExpansion => 1;

    /// <summary>Processes the current term.</summary>
    /// <param name="term">The term; rewrite <see cref="TermBuffer.Chars"/> or set <see cref="TermBuffer.Length"/>.</param>
    /// <returns><see langword="false"/> to remove the token (its position still counts as a gap).</returns>
    public abstract bool Apply(ref TermBuffer term);
}
