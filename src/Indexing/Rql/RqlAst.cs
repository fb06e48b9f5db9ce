using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>A parsed query.</summary>
public sealed partial record RqlQuery(
    RqlSource From,
    RqlExpression? Where,
    IReadOnlyList<RqlOrder> OrderBy,
    IReadOnlyList<RqlProjection> Select,
    IReadOnlyList<RqlFacet> Facets,
    IReadOnlyList<FieldPath> Include,
    RqlValue? Limit,
    RqlValue? Offset)
{
    /// <summary>The fields of <c>group by</c>: a query with them aggregates its collection (an auto map/reduce index).</summary>
    public IReadOnlyList<RqlField> GroupBy { get; init; } = [];

    /// <summary>The fields whose matched terms the answer shows in fragments (<c>include highlight(…)</c>).</summary>
    public IReadOnlyList<RqlHighlight> Highlights { get; init; } = [];
}

/// <summary>What a query reads: a collection, or a named index.</summary>
public sealed record RqlSource(string? Collection, string? IndexName);

/// <summary>
/// A field reference: a path (the same <see cref="FieldPath"/> index definitions use), or <c>id()</c>.
/// </summary>
/// <param name="Path">The path; null for <c>id()</c>.</param>
/// <param name="Position">Where the reference starts in the query text.</param>
public sealed record RqlField(FieldPath? Path, int Position)
{
    /// <summary>
    /// An aggregate of a group by query instead of a field (<c>count()</c>, <c>count(F)</c>, <c>sum(F)</c>,
    /// <c>min(F)</c>, <c>max(F)</c>, <c>avg(F)</c>): the function's name in lower case; <see cref="Path"/> is its argument.
    /// Also <see cref="KeyFunction"/>, the group's key (<c>key()</c>), without an argument, and <see cref="ArrayFunction"/>,
    /// a group by field's <c>array(path)</c>.
    /// </summary>
    public string? Aggregate { get; init; }

    /// <summary>The <see cref="Aggregate"/> of <c>key()</c>: a group by query's group field, or its group fields.</summary>
    public const string KeyFunction = "key";

    /// <summary>The <see cref="Aggregate"/> of a group by's <c>array(path)</c>: the path's values together as one group.</summary>
    public const string ArrayFunction = "array";

    /// <summary>Whether this is <c>key()</c>.</summary>
    public bool IsKey => Aggregate == KeyFunction;

    /// <summary>Whether this is the document id (<c>id()</c>).</summary>
    public bool IsId => Path is null && Aggregate is null;

    /// <summary>
    /// The field's name where a name is wanted rather than a path: the property of a projection without an
    /// alias, the name of a facet, the field of a static index. A path of one property without <c>[]</c>
    /// gives that property's name as the document spells it (<c>'Major Genre'</c> gives <c>Major Genre</c>,
    /// <c>'a.b'</c> gives <c>a.b</c>), a longer one its canonical text (<c>Address.City</c>,
    /// <c>Lines[].'Unit Price'</c>), <c>id()</c> gives <c>id()</c>.
    /// </summary>
    /// An aggregate is named after its argument (<c>sum(Freight)</c> gives <c>Freight</c>), <c>count()</c> <c>Count</c>.
    public string Name => IsKey ? KeyText
        : Aggregate is not null && Path is null ? "Count"
        : Path is null ? IdText
        : Path.Segments is [{ MarksArray: false } only] ? only.Name : Path.Text;

    /// <summary>The field as a query writes it: <c>id()</c>, the path's <see cref="FieldPath.QueryText"/>, or <c>sum(Freight)</c>.</summary>
    public override string ToString() => Aggregate is not null ? $"{Aggregate}({Path?.QueryText})" : Path?.QueryText ?? IdText;

    private const string IdText = "id()";

    /// <summary><c>key()</c> as a query writes it, and the name of a projection of it without an alias.</summary>
    public const string KeyText = "key()";
}

/// <summary>A literal or a parameter.</summary>
public abstract record RqlValue(int Position);

/// <summary>A literal: a string, a long, a double, a boolean or null.</summary>
public sealed record RqlLiteral(object? Value, int Position) : RqlValue(Position);

/// <summary>A <c>$name</c> parameter, bound from the query's parameters.</summary>
public sealed record RqlParameter(string Name, int Position) : RqlValue(Position);

/// <summary>A condition of the where clause.</summary>
public abstract record RqlExpression;

/// <summary><c>a and b</c>, <c>a or b</c>.</summary>
public sealed record RqlBinary(bool IsAnd, RqlExpression Left, RqlExpression Right) : RqlExpression;

/// <summary><c>not a</c>.</summary>
public sealed record RqlNot(RqlExpression Inner) : RqlExpression;

/// <summary><c>field op value</c> with op one of = != &lt; &lt;= &gt; &gt;=.</summary>
public sealed record RqlComparison(RqlField Field, string Operator, RqlValue Value) : RqlExpression;

/// <summary><c>field between low and high</c> (inclusive).</summary>
public sealed record RqlBetween(RqlField Field, RqlValue Low, RqlValue High) : RqlExpression;

/// <summary><c>field in (v1, v2, …)</c>.</summary>
public sealed record RqlIn(RqlField Field, IReadOnlyList<RqlValue> Values) : RqlExpression;

/// <summary><c>search(field, text)</c>, <c>startsWith(field, prefix)</c>, <c>endsWith(field, suffix)</c>, <c>exists(field)</c>.</summary>
public sealed record RqlFunction(string Name, RqlField Field, RqlValue? Argument) : RqlExpression
{
    /// <summary>For <c>search(field, text, and)</c>: whether a match needs every word of the text rather than any.</summary>
    public bool RequireAll { get; init; }

    /// <summary>For <c>lucene(field, text, true)</c>: whether the text's terms match the field's values as written, not analyzed.</summary>
    public bool Exact { get; init; }
}

/// <summary><c>boost(condition, factor)</c>: the condition, its score multiplied by the factor (a number above 0).</summary>
public sealed record RqlBoost(RqlExpression Inner, RqlValue Factor) : RqlExpression;

/// <summary>
/// The seeds' <c>fuzzy(field = 'value', factor)</c>: terms of the field near the value, the factor a minimum similarity
/// below 1 (mapped to edits as Lucene maps one) or a number of edits (0, 1 or 2).
/// </summary>
public sealed record RqlFuzzy(RqlComparison Comparison, RqlValue Factor) : RqlExpression;

/// <summary>The seeds' <c>proximity(search(field, 'words'), slop)</c>: the words as a phrase with that slop.</summary>
public sealed record RqlProximity(RqlFunction Search, RqlValue Slop) : RqlExpression;

/// <summary>
/// <c>include highlight(field, fragmentLength, fragmentCount [, $options])</c>: up to <see cref="FragmentCount"/>
/// fragments of about <see cref="FragmentLength"/> characters of each result's field, the query's matched terms marked.
/// </summary>
public sealed record RqlHighlight(RqlField Field, RqlValue FragmentLength, RqlValue FragmentCount, RqlValue? Options);

/// <summary>One key of <c>order by</c>: a field (or the score), how to compare it, and the direction.</summary>
public sealed partial record RqlOrder(RqlField? Field, RqlOrderType Type, bool Descending)
{
    /// <summary>The key is <c>spatial.distance(…)</c> (and <see cref="Field"/> is null) when set.</summary>
    public RqlDistance? Distance { get; init; }
}

/// <summary>How an <c>order by</c> key compares.</summary>
public enum RqlOrderType
{
    /// <summary>As the field's index type does (text for auto indexes).</summary>
    Default,

    /// <summary><c>as string</c>.</summary>
    String,

    /// <summary><c>as long</c>.</summary>
    Long,

    /// <summary><c>as double</c>.</summary>
    Double,

    /// <summary><c>as alphanumeric</c>: text in natural order, runs of digits compared as numbers (<c>a2</c> before <c>a10</c>).</summary>
    AlphaNumeric,

    /// <summary><c>random()</c> or <c>random('seed')</c>: a shuffle, the same one for the same seed.</summary>
    Random,
}

/// <summary>One projected field: <c>path [as alias]</c>.</summary>
public sealed record RqlProjection(RqlField Field, string Alias);

/// <summary>
/// A facet: counts per value of a field, or per range when <see cref="Ranges"/> is not empty, with aggregations
/// per value or range and options; or, when <see cref="SetupId"/> is set, the facets of a stored setup document.
/// </summary>
public sealed record RqlFacet(RqlField Field, IReadOnlyList<RqlFacetRange> Ranges, string Text)
{
    /// <summary>The numbers aggregated per value or range (<c>sum(Price)</c>, …), in the order written.</summary>
    public IReadOnlyList<RqlFacetAggregation> Aggregations { get; init; } = [];

    /// <summary>The <c>$parameter</c> holding the facet's options (<c>{"PageSize":10,"TermSortMode":"CountDesc",…}</c>), if any.</summary>
    public RqlValue? Options { get; init; }

    /// <summary>The name the answer gives the facet (<c>facet(Brand) as Brands</c>); null for the field's name.</summary>
    public string? Alias { get; init; }

    /// <summary>
    /// The id of a stored facet setup (<c>facet(id('facets/Search'))</c>): the query runs that document's facets, and
    /// <see cref="Field"/> is a placeholder.
    /// </summary>
    public RqlValue? SetupId { get; init; }

    /// <summary>The facet's name in the answer: its alias, or its field's <see cref="RqlField.Name"/>.</summary>
    public string Name => Alias ?? Field.Name;
}

/// <summary>One aggregation of a facet: <c>sum</c>, <c>min</c>, <c>max</c> or <c>avg</c> of a field's numbers, optionally named (<c>sum(Price) as Revenue</c>).</summary>
public sealed record RqlFacetAggregation(RqlFacetAggregationOp Op, RqlField Field, string? Alias)
{
    /// <summary>The name the answer's values carry for this field: the alias, or the field's <see cref="RqlField.Name"/>.</summary>
    public string Name => Alias ?? Field.Name;
}

/// <summary>What a facet aggregation computes over the numbers of the matches under a value or range.</summary>
[Flags]
public enum RqlFacetAggregationOp
{
    /// <summary>Nothing.</summary>
    None = 0,

    /// <summary>The sum (0 without numbers).</summary>
    Sum = 1,

    /// <summary>The smallest number.</summary>
    Min = 2,

    /// <summary>The largest number.</summary>
    Max = 4,

    /// <summary>The sum divided by how many numbers there are.</summary>
    Average = 8,
}

/// <summary>One range of a range facet (<c>Price &lt; 200</c>, <c>Price between 200 and 600</c>).</summary>
public sealed record RqlFacetRange(RqlValue? Lower, bool LowerInclusive, RqlValue? Upper, bool UpperInclusive, string Text);
