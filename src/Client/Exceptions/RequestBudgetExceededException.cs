namespace Folio.Client.Exceptions;

/// <summary>
/// A session made more requests than its budget allows (<see cref="Conventions.DocumentConventions.MaxNumberOfRequestsPerSession"/>).
/// A session is a short unit of work; many requests in one usually mean a load or query in a loop (an N+1 pattern)
/// that an <c>Include</c>, a multi-id load or one query would do in a single request.
/// </summary>
public sealed class RequestBudgetExceededException : FolioException
{
    /// <summary>Creates the exception for a session whose budget is <paramref name="budget"/>.</summary>
    public RequestBudgetExceededException(int budget)
        : base($"This session has already made its {budget} requests, the most one session may make " +
               "(DocumentConventions.MaxNumberOfRequestsPerSession). A session is meant to be a short unit of work: " +
               "load related documents with Include or several ids in one LoadAsync, query once instead of per item, " +
               "or open a new session for the next unit of work.")
    {
        Budget = budget;
    }

    /// <summary>The number of requests the session was allowed.</summary>
    public int Budget { get; }
}
