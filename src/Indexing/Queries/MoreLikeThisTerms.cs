namespace Folio.Indexing.Queries;

/// <summary>
/// The term selection of <see cref="MoreLikeThisQuery"/>, the same for every engine: each engine counts the source's
/// terms and looks up their document frequencies, and this keeps those that pass the options' limits and ranks them by
/// tf-idf as Lucene's MoreLikeThis does (tf × (1 + ln(entries / (df + 1)))), best first, ties by field and term.
/// </summary>
public static class MoreLikeThisTerms
{
    /// <summary>The query's terms: at most <see cref="MoreLikeThisOptions.MaximumQueryTerms"/>, each with its boost (1 unless the options boost).</summary>
    public static List<MoreLikeThisTerm> Select(List<MoreLikeThisCandidate> candidates, MoreLikeThisOptions options, long entryCount)
    {
        ArgumentNullException.ThrowIfNull(candidates);
        ArgumentNullException.ThrowIfNull(options);
        var maximumDocumentFrequency = options.MaximumDocumentFrequencyOf(entryCount);
        var scored = new List<(MoreLikeThisCandidate Candidate, double Score)>();
        foreach (var candidate in candidates)
        {
            var length = candidate.Term.Length;
            if (candidate.TermFrequency < options.MinimumTermFrequency
                || (options.MinimumWordLength > 0 && length < options.MinimumWordLength)
                || (options.MaximumWordLength > 0 && length > options.MaximumWordLength)
                || candidate.DocumentFrequency == 0
                || candidate.DocumentFrequency < options.MinimumDocumentFrequency
                || candidate.DocumentFrequency > maximumDocumentFrequency)
                continue;
            var idf = 1 + Math.Log(entryCount / (double)(candidate.DocumentFrequency + 1));
            scored.Add((candidate, candidate.TermFrequency * idf));
        }
        scored.Sort(static (a, b) =>
        {
            var byScore = b.Score.CompareTo(a.Score);
            if (byScore != 0)
                return byScore;
            var byField = string.CompareOrdinal(a.Candidate.Field, b.Candidate.Field);
            return byField != 0 ? byField : string.CompareOrdinal(a.Candidate.Term, b.Candidate.Term);
        });
        var count = Math.Min(scored.Count, Math.Max(0, options.MaximumQueryTerms));
        var terms = new List<MoreLikeThisTerm>(count);
        for (var i = 0; i < count; i++)
        {
            var boost = options.Boost ? (float)(options.BoostFactor * scored[i].Score / scored[0].Score) : 1f;
            terms.Add(new MoreLikeThisTerm(scored[i].Candidate.Field, scored[i].Candidate.Term, boost));
        }
        return terms;
    }
}

/// <summary>A term of the source: its field, its text as indexed, how often the source has it and how many entries do.</summary>
public sealed record MoreLikeThisCandidate(string Field, string Term, int TermFrequency, long DocumentFrequency);

/// <summary>A term the query looks for, with the boost its clause gets.</summary>
public sealed record MoreLikeThisTerm(string Field, string Term, float Boost);
