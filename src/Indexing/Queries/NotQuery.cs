using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Every entry that does not match the clause.</summary>
public sealed class NotQuery(Query clause) : Query
{
    /// <summary>The negated clause.</summary>
    public Query Clause { get; } = clause;

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher) =>
        new AndNotIterator(searcher.AllEntries(), Clause.CreateIterator(searcher));
}
