namespace Folio.Indexing.Rql;

public sealed partial record RqlQuery
{
    /// <summary>
    /// <c>filter condition</c>: a condition checked on each document (or map/reduce row) the query retrieved, after the
    /// index, without an index of its own: an exploration query. Null when the query has none, or filters through a
    /// declared function (<see cref="FilterScript"/>).
    /// </summary>
    public RqlExpression? Filter { get; init; }

    /// <summary><c>filter f(e, $p)</c>: a call of a declared function whose result, taken as true or false, filters.</summary>
    public RqlScript? FilterScript { get; init; }

    /// <summary><c>filter_limit n</c>: at most this many retrieved documents are checked; null for all of them.</summary>
    public RqlValue? FilterLimit { get; init; }

    /// <summary>Whether the query has a <c>filter</c>.</summary>
    public bool Filters => Filter is not null || FilterScript is not null;
}
