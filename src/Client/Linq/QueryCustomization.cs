namespace Folio.Client.Linq;

/// <summary>The options a query's <c>Customize</c> calls set.</summary>
internal sealed class QueryCustomization : IQueryCustomization
{
    public bool WaitForNonStale { get; private set; }

    public TimeSpan? WaitTimeout { get; private set; }

    public bool IsNoTracking { get; private set; }

    public IQueryCustomization WaitForNonStaleResults(TimeSpan? timeout = null)
    {
        WaitForNonStale = true;
        WaitTimeout = timeout;
        return this;
    }

    public IQueryCustomization NoTracking()
    {
        IsNoTracking = true;
        return this;
    }
}
