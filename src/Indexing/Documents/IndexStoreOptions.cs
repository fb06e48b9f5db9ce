namespace Folio.Indexing.Documents;

/// <summary>Settings of a database's indexes.</summary>
public sealed record IndexStoreOptions
{
    /// <summary>How long an auto index may go unqueried before it is retired.</summary>
    public TimeSpan AutoIndexIdleTimeout { get; init; } = TimeSpan.FromMinutes(30);

    /// <summary>How often replacements and idle auto indexes are checked.</summary>
    public TimeSpan MaintenanceInterval { get; init; } = TimeSpan.FromMilliseconds(250);

    /// <summary>The search engine of auto indexes and of definitions that name none (a name of <see cref="Engines.SearchEngines"/>).</summary>
    public string SearchEngine { get; init; } = Engines.SearchEngines.Default;

    /// <summary>When set, every index keeps its data in memory (tests and throw-away databases).</summary>
    public bool InMemory { get; init; }
}
