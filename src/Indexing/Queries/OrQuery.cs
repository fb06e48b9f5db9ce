using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Entries matching any clause; scores add up over the clauses that match.</summary>
public sealed class OrQuery(IReadOnlyList<Query> should) : Query
{
    /// <summary>The clauses.</summary>
    public IReadOnlyList<Query> Should { get; } = should;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher)
    {
        if (Should.Count == 0)
            return new EmptyIterator();
        if (Should.Count == 1)
            return Should[0].CreateIterator(searcher);
        var children = new DocIdIterator[Should.Count];
        for (var i = 0; i < children.Length; i++)
            children[i] = Should[i].CreateIterator(searcher);
        return new OrIterator(children);
    }
}
