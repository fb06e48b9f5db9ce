using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

public sealed partial record RqlQuery
{
    /// <summary>The paths of <c>include cmpxchg('Path')</c>: their values are compare-exchange keys whose entries the answer includes.</summary>
    public IReadOnlyList<FieldPath> CompareExchangeIncludes { get; init; } = [];

    /// <summary>Whether a value of the where clause is <c>cmpxchg(…)</c>, to be read from the store before the query runs.</summary>
    public bool UsesCompareExchange { get; init; }
}

/// <summary>
/// <c>cmpxchg(key)</c> as a value: the <c>Object</c> of the compare-exchange entry under the key when the query runs
/// (null when there is none).
/// </summary>
/// <param name="Key">The key: a string literal or a parameter.</param>
/// <param name="Position">Where the call starts in the query text.</param>
public sealed record RqlCompareExchange(RqlValue Key, int Position) : RqlValue(Position);
