using System.Collections.Frozen;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Removes stop words. The removed token's position is not reused: the next token's position
/// increment grows by one, as in Lucene, so phrase queries still see the gap.
/// </summary>
/// <remarks>Comparison is ordinal, so place the filter after lower-casing and folding.</remarks>
public sealed class StopFilter : TokenFilter
{
    private readonly FrozenSet<string>.AlternateLookup<ReadOnlySpan<char>> _lookup;

    /// <summary>Creates a filter that removes the given words.</summary>
    /// <param name="stopWords">The words to remove, compared ordinally.</param>
    public StopFilter(IEnumerable<string> stopWords)
    {
        ArgumentNullException.ThrowIfNull(stopWords);
        FrozenSet<string> set = stopWords is FrozenSet<string> frozen && ReferenceEquals(frozen.Comparer, StringComparer.Ordinal)
            ? frozen
            : stopWords.ToFrozenSet(StringComparer.Ordinal);
        _lookup = set.GetAlternateLookup<ReadOnlySpan<char>>();
    }

    /// <summary>A shared filter with <see cref="EnglishStopWords"/>.</summary>
    public static StopFilter English { get; } = new(EnglishStopWords.Set);

    /// <summary>Whether <paramref name="term"/> is one of this filter's stop words.</summary>
    /// <param name="term">The term to test.</param>
    /// <returns><see langword="true"/> for a stop word.</returns>
    public bool IsStopWord(ReadOnlySpan<char> term) => _lookup.Contains(term);

    /// <inheritdoc />
    public override bool Apply(ref TermBuffer term) => !_lookup.Contains(term.Chars);
}
