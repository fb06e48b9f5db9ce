using System.Globalization;
using System.Text;
using System.Text.Json;
using static Folio.Server.Tests.Facets.FacetDataset;

namespace Folio.Server.Tests.Facets;

/// <summary>A top-level condition of a facet query: the field it is wholly about, its RQL, and the same as SQL over the oracle's tables.</summary>
public sealed record FacetCondition(Field Field, string Rql, string Sql);

/// <summary>One aggregation of a facet: <c>sum</c>, <c>min</c>, <c>max</c> or <c>avg</c> of a field, maybe under another name.</summary>
public sealed record FacetAggregation(string Op, Field Field, string? Alias)
{
    public string Name => Alias ?? Field.Property;

    public string ToRql() => $"{Op}({Field.Rql})" + (Alias is null ? "" : $" as {Alias}");
}

/// <summary>One range of a range facet: as RQL writes it, and as a SQL condition on a number <c>v.num</c>.</summary>
public sealed record FacetRange(string Rql, string Sql);

/// <summary>A facet: its field, its ranges (none for a term facet), aggregations and options.</summary>
public sealed record FacetSpec(Field Field, List<FacetRange> Ranges, List<FacetAggregation> Aggregations, FacetSpecOptions? Options)
{
    public bool IsRange => Ranges.Count > 0;

    public bool Sideways => Options?.Sideways == true;

    public string ToRql(string? optionsParameter)
    {
        var arguments = new List<string>();
        if (IsRange)
            arguments.AddRange(Ranges.Select(r => r.Rql));
        else
            arguments.Add(Field.Rql);
        arguments.AddRange(Aggregations.Select(a => a.ToRql()));
        if (optionsParameter is not null)
            arguments.Add("$" + optionsParameter);
        return $"facet({string.Join(", ", arguments)})";
    }
}

/// <summary>A facet's options (unset ones are left out of the JSON, so Folio's defaults apply).</summary>
public sealed record FacetSpecOptions(int? Start, int? PageSize, string? SortMode, bool? IncludeRemainingTerms, bool? Sideways)
{
    public string ToJson()
    {
        var properties = new List<string>();
        if (Start is { } start)
            properties.Add($"\"Start\":{start}");
        if (PageSize is { } pageSize)
            properties.Add($"\"PageSize\":{pageSize}");
        if (SortMode is { } mode)
            properties.Add($"\"TermSortMode\":\"{mode}\"");
        if (IncludeRemainingTerms is { } include)
            properties.Add($"\"IncludeRemainingTerms\":{(include ? "true" : "false")}");
        if (Sideways is { } sideways)
            properties.Add($"\"Sideways\":{(sideways ? "true" : "false")}");
        return "{" + string.Join(',', properties) + "}";
    }
}

/// <summary>A random facet query: top-level conditions joined by <c>and</c> and one to three facets.</summary>
public sealed record FacetQuery(List<FacetCondition> Conditions, List<FacetSpec> Facets)
{
    public string ToRql()
    {
        var rql = new StringBuilder("from Products");
        if (Conditions.Count > 0)
            rql.Append(" where ").AppendJoin(" and ", Conditions.Select(c => c.Rql));
        rql.Append(" select ").AppendJoin(", ", Facets.Select((f, i) => f.ToRql(f.Options is null ? null : $"o{i}")));
        return rql.ToString();
    }

    /// <summary>The QueryParameters object: each facet's options as <c>o{index}</c>.</summary>
    public string ParametersJson()
    {
        var parameters = new List<string>();
        for (var i = 0; i < Facets.Count; i++)
        {
            if (Facets[i].Options is { } options)
                parameters.Add($"\"o{i}\":{options.ToJson()}");
        }
        return "{" + string.Join(',', parameters) + "}";
    }

    /// <summary>The conditions a facet counts under: all, or for a sideways facet those not wholly about its field.</summary>
    public List<FacetCondition> ConditionsFor(FacetSpec facet) =>
        facet.Sideways ? Conditions.Where(c => c.Field != facet.Field).ToList() : Conditions;
}

/// <summary>Makes random facet queries over <see cref="FacetDataset"/>, with conditions often on the faceted fields so sideways facets drill past them.</summary>
public sealed class FacetQueryGenerator(int seed)
{
    private static readonly Field[] TermFields = [Brand, Genre, Tags, Dotted, Stock];
    private static readonly Field[] RangeFields = [Price, UnitCost, Ratings, Stock];
    private static readonly Field[] AggregatedFields = [Price, UnitCost, Ratings, Stock];
    private static readonly string[] Ops = ["sum", "min", "max", "avg"];
    private static readonly string[] SortModes = ["CountDesc", "CountAsc", "ValueAsc", "ValueDesc"];
    private readonly Random _random = new(seed);
    private int _aliases;

    public List<FacetQuery> Generate(int count)
    {
        var queries = new List<FacetQuery>(count);
        for (var i = 0; i < count; i++)
            queries.Add(Next());
        return queries;
    }

    private FacetQuery Next()
    {
        var facets = new List<FacetSpec>();
        var facetCount = 1 + _random.Next(3);
        for (var f = 0; f < facetCount; f++)
            facets.Add(_random.Next(3) == 0 ? RangeFacet() : TermFacet());
        var conditions = new List<FacetCondition>();
        var conditionCount = _random.Next(4);
        for (var c = 0; c < conditionCount; c++)
        {
            // Half the conditions are on a faceted field, so sideways facets have something to drill past.
            var field = _random.Next(2) == 0 ? facets[_random.Next(facets.Count)].Field : All[_random.Next(All.Length)];
            conditions.Add(Condition(field));
        }
        return new FacetQuery(conditions, facets);
    }

    private FacetSpec TermFacet()
    {
        var field = TermFields[_random.Next(TermFields.Length)];
        FacetSpecOptions? options = null;
        if (_random.Next(3) > 0)
        {
            options = new FacetSpecOptions(
                _random.Next(3) == 0 ? _random.Next(4) : null,
                _random.Next(2) == 0 ? 1 + _random.Next(8) : null,
                _random.Next(4) > 0 ? SortModes[_random.Next(SortModes.Length)] : null,
                _random.Next(2) == 0 ? _random.Next(2) == 0 : null,
                _random.Next(2) == 0 ? true : null);
        }
        return new FacetSpec(field, [], Aggregations(), options);
    }

    private FacetSpec RangeFacet()
    {
        var field = RangeFields[_random.Next(RangeFields.Length)];
        var max = field == Price ? 1000 : field == UnitCost ? 100 : field == Ratings ? 5 : 50;
        var ranges = new List<FacetRange>();
        var count = 2 + _random.Next(3);
        for (var r = 0; r < count; r++)
            ranges.Add(Range(field, max));
        var options = _random.Next(3) == 0 ? new FacetSpecOptions(null, null, null, null, true) : null;
        return new FacetSpec(field, ranges, Aggregations(), options);
    }

    private FacetRange Range(Field field, int max)
    {
        var a = Number(max);
        var b = Number(max);
        if (a > b)
            (a, b) = (b, a);
        var (op, sqlOp) = Operator();
        return _random.Next(4) switch
        {
            0 => new FacetRange($"{field.Rql} between {Text(a)} and {Text(b)}", $"v.num >= {Text(a)} AND v.num <= {Text(b)}"),
            _ => new FacetRange($"{field.Rql} {op} {Text(a)}", $"v.num {sqlOp} {Text(a)}"),
        };
    }

    private List<FacetAggregation> Aggregations()
    {
        var aggregations = new List<FacetAggregation>();
        var count = _random.Next(4) == 0 ? 0 : _random.Next(1, 4);
        for (var a = 0; a < count; a++)
        {
            var alias = _random.Next(5) == 0 ? $"Agg{_aliases++}" : null;
            aggregations.Add(new FacetAggregation(Ops[_random.Next(Ops.Length)], AggregatedFields[_random.Next(AggregatedFields.Length)], alias));
        }
        return aggregations;
    }

    private FacetCondition Condition(Field field)
    {
        if (field.Numeric)
        {
            var max = field == Price ? 1000 : field == UnitCost ? 100 : field == Ratings ? 5 : 50;
            var a = Number(max);
            var b = Number(max);
            if (a > b)
                (a, b) = (b, a);
            if (_random.Next(3) == 0)
                return new FacetCondition(field, $"{field.Rql} between {Text(a)} and {Text(b)}", Exists(field, $"v.num >= {Text(a)} AND v.num <= {Text(b)}"));
            var (op, sqlOp) = Operator();
            return new FacetCondition(field, $"{field.Rql} {op} {Text(a)}", Exists(field, $"v.num {sqlOp} {Text(a)}"));
        }
        if (field == Dotted && _random.Next(3) == 0)
        {
            var n = _random.Next(1, 7);
            return new FacetCondition(field, $"{field.Rql} = {n}", Exists(field, $"v.num = {n}"));
        }
        string Value() => field == Brand ? Brands[_random.Next(Brands.Length)] : field == Genre ? Genres[_random.Next(Genres.Length)]
            : field == Tags ? TagValues[_random.Next(TagValues.Length)] : _random.Next(2) == 0 ? "x" : _random.Next(1, 4).ToString(CultureInfo.InvariantCulture);
        string Equal(string value) => Exists(field, $"v.kind = 1 AND v.k = {Sql(value.ToLowerInvariant())}");
        switch (_random.Next(8))
        {
            case 0:
                var (x, y) = (Value(), Value());
                return new FacetCondition(field, $"{field.Rql} in ({Rql(x)}, {Rql(y)})", $"({Equal(x)} OR {Equal(y)})");
            case 1:
                var z = Value();
                return new FacetCondition(field, $"{field.Rql} != {Rql(z)}", $"NOT {Equal(z)}");
            case 2:
                return new FacetCondition(field, $"{field.Rql} = null", Exists(field, "v.kind = 0"));
            case 3:
                return new FacetCondition(field, $"exists({field.Rql})", $"json_type(d.json, {Sql(field.JsonPath)}) IS NOT NULL");
            case 4:
                var (p, q) = (Value(), Value());
                return new FacetCondition(field, $"({field.Rql} = {Rql(p)} or not {field.Rql} = {Rql(q)})", $"({Equal(p)} OR NOT {Equal(q)})");
            default:
                var value = Value();
                return new FacetCondition(field, $"{field.Rql} = {Rql(value)}", Equal(value));
        }
    }

    private (string Rql, string Sql) Operator() => _random.Next(4) switch
    {
        0 => ("<", "<"),
        1 => ("<=", "<="),
        2 => (">", ">"),
        _ => (">=", ">="),
    };

    /// <summary>A bound: a multiple of 1/4 (data holds multiples of 1/8 and 1/2, so bounds hit values exactly and not).</summary>
    private double Number(int max) => _random.Next(0, (max * 4) + 1) * 0.25;

    private static string Text(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    /// <summary>Whether the document has a value of <paramref name="field"/> meeting <paramref name="condition"/> (a set SQLite builds once per statement).</summary>
    private static string Exists(Field field, string condition) =>
        $"d.seq IN (SELECT v.seq FROM vals v WHERE v.f = {Sql(field.Property)} AND {condition})";

    private static string Rql(string text) => "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";

    private static string Sql(string text) => "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";
}
