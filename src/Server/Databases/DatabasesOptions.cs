namespace Folio.Server.Databases;

/// <summary>Settings of loading and unloading databases (the <c>Databases</c> section).</summary>
public sealed class DatabasesOptions
{
    /// <summary>
    /// How long a database stays loaded with no request, no changes feed or subscription connected and no work
    /// pending (<c>Databases:IdleUnloadAfter</c>, default 15 minutes); then its files, threads and caches are
    /// released until the next request opens it again. <see cref="TimeSpan.Zero"/> never unloads for idleness.
    /// </summary>
    public TimeSpan IdleUnloadAfter { get; set; } = TimeSpan.FromMinutes(15);

    /// <summary>
    /// The most databases loaded at once (<c>Databases:MaxLoaded</c>, default 0: no cap). Opening one more unloads
    /// the least recently used databases that have no work pending and nothing connected; when every loaded
    /// database is busy the count goes over the cap until one becomes idle.
    /// </summary>
    public int MaxLoaded { get; set; }

    /// <summary>The problems with these settings (none when valid).</summary>
    public IReadOnlyList<string> Validate()
    {
        var errors = new List<string>();
        if (IdleUnloadAfter < TimeSpan.Zero)
            errors.Add("Databases:IdleUnloadAfter must not be negative.");
        if (MaxLoaded < 0)
            errors.Add("Databases:MaxLoaded must not be negative (0 means no cap).");
        return errors;
    }
}
