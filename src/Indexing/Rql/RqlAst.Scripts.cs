namespace Folio.Indexing.Rql;

/// <summary>The JavaScript parts of a query.</summary>
public sealed partial record RqlQuery
{
    /// <summary>The alias of <c>from Orders as o</c>, the name projections and updates call the document by; null without one.</summary>
    public string? Alias { get; init; }

    /// <summary>The functions of <c>declare function …</c> before <c>from</c>.</summary>
    public IReadOnlyList<RqlScript> Functions { get; init; } = [];

    /// <summary>The related documents of <c>load o.Company as c, …</c>.</summary>
    public IReadOnlyList<RqlLoad> Loads { get; init; } = [];

    /// <summary>The object literal of <c>select { … }</c>, or null.</summary>
    public RqlScript? ScriptProjection { get; init; }

    /// <summary>The body of <c>update { … }</c> (a patch by query), or null.</summary>
    public RqlScript? Update { get; init; }
}

/// <summary>JavaScript as the query wrote it, and where it starts (line and column, 1-based) in the query text.</summary>
public sealed record RqlScript(string Text, int Line, int Column);

/// <summary><c>load path as alias</c>: the document whose id the path holds, under the alias.</summary>
public sealed record RqlLoad(RqlField Field, string Alias);
