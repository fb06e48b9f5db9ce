using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Which clauses of a query score, the same for every engine: full-text searches, phrases and fuzzy terms on full-text
/// fields do, boosts do, and a conjunction or disjunction does when one of its positive clauses does. Everything else
/// (exact comparisons, ranges, prefixes, existence, negations) matches with a score of 0, which is why a boost of such
/// a clause gives it its factor as the score rather than multiplying nothing.
/// </summary>
public static class QueryScoring
{
    /// <summary>Whether <paramref name="query"/> gives its matches a score of their own on an index of <paramref name="schema"/>.</summary>
    public static bool IsScored(Query query, IndexSchema schema)
    {
        ArgumentNullException.ThrowIfNull(query);
        ArgumentNullException.ThrowIfNull(schema);
        switch (query)
        {
            case FullTextQuery or PhraseQuery or BoostQuery or MoreLikeThisQuery:
                return true;
            case FuzzyQuery fuzzy:
                return schema.Get(fuzzy.Field).Kind == FieldKind.FullText;
            case AndQuery and:
                foreach (var must in and.Must)
                {
                    if (IsScored(must, schema))
                        return true;
                }
                return false;
            case IntersectQuery intersect:
                foreach (var part in intersect.Parts)
                {
                    if (IsScored(part, schema))
                        return true;
                }
                return false;
            case OrQuery or:
                foreach (var should in or.Should)
                {
                    if (IsScored(should, schema))
                        return true;
                }
                return false;
            default:
                return false;
        }
    }
}
