namespace Folio.Indexing.Rql;

/// <summary>The clauses of the seeds' RQL that change how a query's matches become its answer.</summary>
public sealed partial record RqlQuery
{
    /// <summary><c>select distinct …</c>: equal projections once each, paging applied to the distinct rows.</summary>
    public bool Distinct { get; init; }

    /// <summary><c>include timings()</c>: the answer says how long each stage of the query took.</summary>
    public bool IncludeTimings { get; init; }

    /// <summary><c>include explanations()</c>: the answer explains each result's score, by document id.</summary>
    public bool IncludeExplanations { get; init; }
}

/// <summary>A sort key's seed.</summary>
public sealed partial record RqlOrder
{
    /// <summary>For <c>random('seed')</c>, the seed (the same seed gives the same order); null for <c>random()</c>.</summary>
    public RqlValue? Seed { get; init; }

    /// <summary>Where the key starts in the query text.</summary>
    public int Position { get; init; }
}

/// <summary>
/// <c>exact(condition)</c>: the condition with its text compared case-sensitively (<c>exact(Name = 'Ernst Handel')</c>,
/// <c>exact(Name in ('A', 'B'))</c>, <c>exact(startsWith(Name, 'Ern'))</c>).
/// </summary>
/// <param name="Inner">The condition.</param>
/// <param name="Position">Where <c>exact</c> starts in the query text.</param>
public sealed record RqlExact(RqlExpression Inner, int Position) : RqlExpression;

/// <summary><c>field all in (v1, v2, …)</c>: the field holds every one of the values (an array holding them all).</summary>
public sealed record RqlAllIn(RqlField Field, IReadOnlyList<RqlValue> Values) : RqlExpression;

/// <summary>A bare <c>true</c>: every document (<c>where true and not exists(F)</c>).</summary>
public sealed record RqlTrue : RqlExpression;
