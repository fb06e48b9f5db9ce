namespace Folio.Indexing.Engines;

/// <summary>
/// Visits the text terms of one field (<see cref="IEngineSearcher.WalkTerms"/>) in two steps, so an engine whose
/// document frequencies cost a look at the postings counts them only for the terms the walker keeps.
/// </summary>
public interface ITermWalker
{
    /// <summary>Whether the walker wants <paramref name="term"/> (its UTF-8 bytes, as indexed); called for every text term of the field, in byte order.</summary>
    bool Wants(ReadOnlySpan<byte> term);

    /// <summary>A wanted term and how many live entries have it (0 when every entry that had it is gone).</summary>
    void Add(ReadOnlySpan<byte> term, long documentFrequency);
}
