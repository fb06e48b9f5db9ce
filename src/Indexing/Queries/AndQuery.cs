using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries matching every clause in <paramref name="must"/> and none in <paramref name="mustNot"/>.
/// With no positive clause, the negations apply to every entry.
/// </summary>
public sealed class AndQuery(IReadOnlyList<Query> must, IReadOnlyList<Query>? mustNot = null) : Query
{
    /// <summary>The clauses that must match.</summary>
    public IReadOnlyList<Query> Must { get; } = must;

    /// <summary>The clauses that must not match.</summary>
    public IReadOnlyList<Query> MustNot { get; } = mustNot ?? [];

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        DocIdIterator include;
        if (Must.Count == 0)
        {
            include = searcher.AllEntries();
        }
        else if (Must.Count == 1)
        {
            include = Must[0].CreateIterator(searcher);
        }
        else
        {
            var children = new DocIdIterator[Must.Count];
            for (var i = 0; i < children.Length; i++)
                children[i] = Must[i].CreateIterator(searcher);
            include = new AndIterator(children);
        }
        foreach (var not in MustNot)
            include = new AndNotIterator(include, not.CreateIterator(searcher));
        return include;
    }
}
