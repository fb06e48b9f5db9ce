using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>A query over an index: a tree of conditions that compiles to a tree of iterators.</summary>
public abstract class Query
{
    /// <summary>Builds the iterator of matching entry ids on a searcher's snapshot.</summary>
    public abstract DocIdIterator CreateIterator(IndexSearcher searcher);
}
