using System.Collections.Frozen;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Lucene's classic English stop-word set (<c>EnglishAnalyzer.ENGLISH_STOP_WORDS_SET</c>), so that
/// Folio's full-text results line up with Lucene's on the same documents.
/// </summary>
public static class EnglishStopWords
{
    /// <summary>The stop words, lower-case, in alphabetical order.</summary>
    public static IReadOnlyList<string> Words { get; } =
    [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
        "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
        "they", "this", "to", "was", "will", "with",
    ];

    /// <summary>The stop words as an ordinal set (supports span look-ups through an alternate lookup).</summary>
    public static FrozenSet<string> Set { get; } = Words.ToFrozenSet(StringComparer.Ordinal);
}
