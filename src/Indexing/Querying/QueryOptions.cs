using System.Text.Json;

namespace Folio.Indexing.Querying;

/// <summary>How to run one query.</summary>
public sealed record QueryOptions
{
    /// <summary>Values of the query's <c>$parameters</c>, as a JSON object.</summary>
    public JsonElement? Parameters { get; init; }

    /// <summary>Whether to wait until the index has caught up with every write made before the query.</summary>
    public bool WaitForNonStaleResults { get; init; }

    /// <summary>How long to wait for that.</summary>
    public TimeSpan WaitTimeout { get; init; } = TimeSpan.FromSeconds(15);

    /// <summary>How long a query that had to create an auto index waits for it before answering stale.</summary>
    public TimeSpan AutoIndexWait { get; init; } = TimeSpan.FromSeconds(3);

    /// <summary>
    /// How long the query may search once its index is ready (null: no limit); past it the query stops with a
    /// <see cref="QueryTimeoutException"/>.
    /// </summary>
    public TimeSpan? Timeout { get; init; }

    /// <summary>
    /// How many bytes the query may allocate while it searches, counts, sorts, facets and builds its page (null: no
    /// limit); past it the query stops with a <see cref="Engines.QueryMemoryLimitException"/>.
    /// </summary>
    public long? MaxMemoryBytes { get; init; }

    /// <summary>The most results one page may have.</summary>
    public int MaxPageSize { get; init; } = 1024;

    /// <summary>
    /// How many results to skip when the query's text has no offset: the seeds' clients send a raw query's skip as
    /// <c>Start</c> beside the query rather than in it.
    /// </summary>
    public int? Start { get; init; }

    /// <summary>How many results to answer when the query's text has no limit (the seeds' clients' <c>PageSize</c>); still at most <see cref="MaxPageSize"/>.</summary>
    public int? PageSize { get; init; }

    /// <summary>
    /// On an index with several entries per document (<see cref="Definitions.IndexDefinition.IsFanOut"/>): answer each
    /// matching entry's document, repeated as often as it matches, instead of each document once (the seeds' clients'
    /// <c>SkipDuplicateChecking</c>).
    /// </summary>
    public bool SkipDuplicateChecking { get; init; }


    /// <summary>What each run of the query's JavaScript (<c>select { … }</c>, one result at a time) may use.</summary>
    public Scripting.ScriptLimits ScriptLimits { get; init; } = Scripting.ScriptLimits.Default;

    /// <summary>
    /// Whether facets answer as the seeds' system's clients expect: a term facet's text values as indexed
    /// (lower-cased where the field folds case) rather than in the spelling the data uses most, and its terms in
    /// value order when the query gives no options (Folio's own default is by count, highest first).
    /// </summary>
    public bool SeedsFacetShapes { get; init; }
}
