namespace Folio.Indexing.Queries;

/// <summary>
/// How <see cref="MoreLikeThisQuery"/> picks the terms of its source: the seeds' options, with their defaults (those of
/// Lucene's MoreLikeThis). A term is kept when it occurs at least <see cref="MinimumTermFrequency"/> times in the source,
/// in at least <see cref="MinimumDocumentFrequency"/> and at most <see cref="MaximumDocumentFrequency"/> entries, and has
/// a length within the word lengths; the <see cref="MaximumQueryTerms"/> kept terms with the highest tf-idf make the query.
/// </summary>
public sealed record MoreLikeThisOptions
{
    /// <summary>The fewest times a term must occur in the source's field (default 2).</summary>
    public int MinimumTermFrequency { get; init; } = 2;

    /// <summary>The fewest entries of the index that must have a term (default 5).</summary>
    public int MinimumDocumentFrequency { get; init; } = 5;

    /// <summary>The most entries of the index that may have a term (default: no limit).</summary>
    public long MaximumDocumentFrequency { get; init; } = long.MaxValue;

    /// <summary>The most entries that may have a term, as a percentage of the index's entries (null: no limit); with <see cref="MaximumDocumentFrequency"/> the lower bound applies.</summary>
    public int? MaximumDocumentFrequencyPercentage { get; init; }

    /// <summary>The most terms the query looks for (default 25).</summary>
    public int MaximumQueryTerms { get; init; } = 25;

    /// <summary>The most tokens read from each field of the source (default 5000).</summary>
    public int MaximumNumberOfTokensParsed { get; init; } = 5000;

    /// <summary>Terms shorter than this many characters are ignored (default 0: none).</summary>
    public int MinimumWordLength { get; init; }

    /// <summary>Terms longer than this many characters are ignored (default 0: none).</summary>
    public int MaximumWordLength { get; init; }

    /// <summary>Whether each term of the query is boosted by its tf-idf relative to the best term's (default false).</summary>
    public bool Boost { get; init; }

    /// <summary>The factor of those boosts (default 1).</summary>
    public float BoostFactor { get; init; } = 1;

    /// <summary>The largest document frequency a term may have in an index of <paramref name="entryCount"/> entries.</summary>
    public long MaximumDocumentFrequencyOf(long entryCount) => MaximumDocumentFrequencyPercentage is { } percentage
        ? Math.Min(MaximumDocumentFrequency, entryCount * percentage / 100)
        : MaximumDocumentFrequency;
}
