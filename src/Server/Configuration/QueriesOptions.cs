namespace Folio.Server.Configuration;

/// <summary>
/// Query governance (the <c>Queries</c> section): how long one query may search and how much memory it may
/// allocate. A request may ask for another budget with the <c>timeout</c> query-string parameter, up to
/// <see cref="MaxTimeout"/>; a query past its budget is stopped and answered 408 with the
/// <c>urn:folio:problem:query-timeout</c> problem, one past <see cref="MaxMemory"/> 422 with
/// <c>urn:folio:problem:query-memory-limit</c>.
/// </summary>
public sealed class QueriesOptions
{
    /// <summary>The budget of a query that asks for none (<c>Queries:Timeout</c>, default 30 seconds).</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The longest budget a request may ask for (<c>Queries:MaxTimeout</c>, default 5 minutes).</summary>
    public TimeSpan MaxTimeout { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>
    /// The most one query may allocate while it searches, counts, sorts, facets and builds its page
    /// (<c>Queries:MaxMemory</c>, in bytes; default 1 GiB; 0 for no limit).
    /// </summary>
    public long MaxMemory { get; set; } = 1L << 30;

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (Timeout <= TimeSpan.Zero)
            errors.Add("Queries:Timeout must be positive.");
        if (MaxTimeout < Timeout)
            errors.Add("Queries:MaxTimeout must be at least Queries:Timeout.");
        if (MaxMemory < 0)
            errors.Add("Queries:MaxMemory must be zero (no limit) or a number of bytes.");
        return errors;
    }
}
