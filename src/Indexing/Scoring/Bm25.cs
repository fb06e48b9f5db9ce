namespace Folio.Indexing.Scoring;

/// <summary>
/// Okapi BM25, as in Lucene: idf = ln(1 + (N − df + 0.5) / (df + 0.5)) and a term's score in an entry
/// idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)), with N the entries having the field,
/// df those having the term, dl the entry's field length in tokens and avgdl the average length.
/// </summary>
public static class Bm25
{
    /// <summary>Term-frequency saturation.</summary>
    public const double K1 = 1.2;

    /// <summary>Length normalization.</summary>
    public const double B = 0.75;

    /// <summary>The inverse document frequency of a term found in <paramref name="documentFrequency"/> of <paramref name="documentCount"/> entries.</summary>
    public static double Idf(long documentFrequency, long documentCount) =>
        Math.Log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));

    /// <summary>A term's score in one entry.</summary>
    public static double Score(double idf, int termFrequency, int fieldLength, double averageFieldLength) =>
        idf * termFrequency * (K1 + 1) / (termFrequency + K1 * (1 - B + B * fieldLength / averageFieldLength));
}
