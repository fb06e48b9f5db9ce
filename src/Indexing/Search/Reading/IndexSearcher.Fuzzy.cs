using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// Fuzzy terms and boosts: a fuzzy term expands, by one walk of the field's terms, to the most similar terms of the
// field (as Lucene's FuzzyQuery picks them), each searched for as a term and scored by its similarity.
public sealed partial class IndexSearcher
{
    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(FuzzyQuery query)
    {
        var reader = Field(query.Field);
        var kind = _index.Schema.Get(query.Field).Kind;
        if (reader.Terms is null || kind is not (FieldKind.Exact or FieldKind.FullText))
            return new EmptyIterator();
        var clauses = new List<DocIdIterator>();
        foreach (var term in FieldTerms.FuzzyTerms(_index.Schema, query.Field, query.Text))
        {
            foreach (var (expansion, similarity) in Expand(reader, query.Field, new FuzzyTermMatcher(term, query.MaxEdits)))
            {
                if (kind != FieldKind.FullText)
                {
                    clauses.Add(Postings(query.Field, expansion));
                    continue;
                }
                if (Scorer(query.Field, expansion) is not { } scorer)
                    continue;
                clauses.Add(similarity == 1f ? scorer : new BoostIterator(scorer, similarity, scored: true));
            }
        }
        return clauses.Count switch
        {
            0 => new EmptyIterator(),
            1 => clauses[0],
            _ => new OrIterator([.. clauses]),
        };
    }

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(BoostQuery query) =>
        new BoostIterator(query.Clause.Accept(this), query.Factor, QueryScoring.IsScored(query.Clause, _index.Schema));

    /// <summary>
    /// The field's terms the matcher accepts, at most <see cref="FuzzyQuery.MaxExpansions"/>: the most similar, and
    /// among equally similar ones the lowest in byte order, as Lucene's top-terms rewrite keeps them. Shortened terms
    /// (longer than <see cref="TermEncoding.MaxTermBytes"/>) keep too little of their value to measure and never match.
    /// </summary>
    private List<(byte[] Term, float Similarity)> Expand(FieldReader reader, string field, FuzzyTermMatcher matcher)
    {
        var best = new List<(byte[] Term, float Similarity)>();
        var cursor = reader.Terms!.CreateCursor();
        var dead = DeadIn(field);
        // Reused for every term's bytes; only a term that makes the cut is copied.
        var term = _scratch.WalkTerm;
        var more = cursor.First();
        while (more)
        {
            var key = cursor.Key;
            if (key.Length > term.Length)
                term = new byte[key.Length];
            // A long list's chunks follow its term's key: keys that are not a whole term's are passed over.
            if (!TermEncoding.TryDecodeKey(key, term, out var termLength, out var termKeyLength))
                throw new Folio.Storage.CorruptionException($"The terms of field '{field}' hold a key that is not a term.");
            var bytes = term.AsSpan(0, termLength);
            // A term only dead entries had would take a place among the expansions and match nothing.
            if (termKeyLength == key.Length && !TermEncoding.IsShortened(bytes) && matcher.TryMatch(bytes, out _, out var similarity)
                && (dead is null || HasLiveEntry(reader, dead, key, cursor.Value)))
                Keep(best, bytes, similarity);
            more = cursor.MoveNext();
        }
        _scratch.WalkTerm = term;
        return best;
    }

    private static void Keep(List<(byte[] Term, float Similarity)> best, ReadOnlySpan<byte> term, float similarity)
    {
        if (best.Count < FuzzyQuery.MaxExpansions)
        {
            best.Add((term.ToArray(), similarity));
            return;
        }
        var worst = 0;
        for (var i = 1; i < best.Count; i++)
        {
            if (Worse(best[i], best[worst]))
                worst = i;
        }
        var (worstTerm, worstSimilarity) = best[worst];
        if (similarity > worstSimilarity || (similarity == worstSimilarity && term.SequenceCompareTo(worstTerm) < 0))
            best[worst] = (term.ToArray(), similarity);
    }

    private static bool Worse((byte[] Term, float Similarity) a, (byte[] Term, float Similarity) b) =>
        a.Similarity < b.Similarity || (a.Similarity == b.Similarity && a.Term.AsSpan().SequenceCompareTo(b.Term) > 0);
}
