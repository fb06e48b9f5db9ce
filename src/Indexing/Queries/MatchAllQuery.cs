using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Every entry.</summary>
public sealed class MatchAllQuery : Query
{
    /// <summary>The one instance.</summary>
    public static MatchAllQuery Instance { get; } = new();

    /// <inheritdoc/>
    public override DocIdIterator CreateIterator(IndexSearcher searcher) => searcher.AllEntries();
}
