using Folio.Client.Linq;

namespace Folio.Client.Queries;

/// <summary>An RQL query written by hand, with <c>$name</c> parameters: for <c>group by</c>, facets, and what LINQ does not say.</summary>
/// <typeparam name="T">The type each result is read as.</typeparam>
public interface IRawDocumentQuery<T>
{
    /// <summary>Sets the value of <c>$name</c> (give the name without the <c>$</c>).</summary>
    IRawDocumentQuery<T> AddParameter(string name, object? value);

    /// <summary>Makes the server wait until the index has caught up with every write before it answers.</summary>
    IRawDocumentQuery<T> WaitForNonStaleResults(TimeSpan? timeout = null);

    /// <summary>Answers entities the session does not track.</summary>
    IRawDocumentQuery<T> NoTracking();

    /// <summary>Hands out an object the server's statistics of the query are written to when it runs.</summary>
    IRawDocumentQuery<T> Statistics(out QueryStatistics statistics);

    /// <summary>Runs the query: whole documents become tracked entities; projections and <c>group by</c> rows are read as <typeparamref name="T"/>.</summary>
    Task<List<T>> ToListAsync(CancellationToken cancellationToken = default);

    /// <summary>Runs the query and answers its first result, or default.</summary>
    Task<T?> FirstOrDefaultAsync(CancellationToken cancellationToken = default);

    /// <summary>Runs a facet query (<c>select facet(…)</c>) and answers one result per facet, in the order the query names them.</summary>
    Task<List<FacetResult>> GetFacetsAsync(CancellationToken cancellationToken = default);
}
