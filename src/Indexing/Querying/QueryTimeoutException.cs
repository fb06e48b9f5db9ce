namespace Folio.Indexing.Querying;

/// <summary>A query ran past its time budget (<see cref="QueryOptions.Timeout"/>) and was stopped; it wrote nothing.</summary>
public sealed class QueryTimeoutException(TimeSpan budget)
    : Exception($"The query ran past its time budget of {budget.TotalMilliseconds:0} ms and was stopped. Narrow it, or ask for a longer budget with the timeout query-string parameter (up to the server's Queries:MaxTimeout).")
{
    /// <summary>The budget it ran past.</summary>
    public TimeSpan Budget { get; } = budget;
}
