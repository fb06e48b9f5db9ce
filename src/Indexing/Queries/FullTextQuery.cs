using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Scoring;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Ranked full-text search: the text is analyzed like the field, and entries having any of its terms
/// (or all, with <paramref name="requireAll"/>) match, scored by BM25 summed over the terms they have.
/// </summary>
public sealed class FullTextQuery(string field, string text, bool requireAll = false) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The search text.</summary>
    public string Text { get; } = text;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        var terms = searcher.AnalyzeDistinct(Field, Text);
        var scorers = new List<DocIdIterator>(terms.Count);
        foreach (var term in terms)
        {
            var scorer = searcher.Scorer(Field, term);
            if (scorer is null)
            {
                if (requireAll)
                    return new EmptyIterator();
                continue;
            }
            scorers.Add(scorer);
        }
        if (scorers.Count == 0)
            return new EmptyIterator();
        if (scorers.Count == 1)
            return scorers[0];
        return requireAll ? new AndIterator([.. scorers]) : new OrIterator([.. scorers]);
    }
}
