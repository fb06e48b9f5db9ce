using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Tests.Search;

/// <summary>Helpers for tests that walk query iterators.</summary>
internal static class DocIdIterators
{
    /// <summary>Every id the iterator still yields, in order.</summary>
    public static List<long> Drain(DocIdIterator iterator)
    {
        var ids = new List<long>();
        while (iterator.MoveNext())
            ids.Add(iterator.Current);
        return ids;
    }
}
