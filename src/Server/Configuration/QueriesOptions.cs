namespace Folio.Server.Configuration;

/// <summary>
/// Query governance (the <c>Queries</c> section): how long one query may search. A request may ask for another
/// budget with the <c>timeout</c> query-string parameter, up to <see cref="MaxTimeout"/>; a query past its budget
/// is stopped and answered 408 with the <c>urn:folio:problem:query-timeout</c> problem.
/// </summary>
public sealed class QueriesOptions
{
    /// <summary>The budget of a query that asks for none (<c>Queries:Timeout</c>, default 30 seconds).</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The longest budget a request may ask for (<c>Queries:MaxTimeout</c>, default 5 minutes).</summary>
    public TimeSpan MaxTimeout { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (Timeout <= TimeSpan.Zero)
            errors.Add("Queries:Timeout must be positive.");
        if (MaxTimeout < Timeout)
            errors.Add("Queries:MaxTimeout must be at least Queries:Timeout.");
        return errors;
    }
}
