namespace Folio.Indexing.Search;

/// <summary>Where a batch's posting changes go, term by term: a field's postings (<see cref="PostingStore"/>), or its runs before them (<see cref="PostingRuns"/>).</summary>
internal interface IPostingWriter
{
    /// <summary>
    /// Applies one batch's changes to a term: <paramref name="removals"/> (sorted, possibly absent ids) come out,
    /// <paramref name="additions"/> (sorted, all newer than any id of the term) go in. Returns whether the term has
    /// postings afterwards.
    /// </summary>
    bool Apply(ReadOnlySpan<byte> term, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<long> removals);
}
