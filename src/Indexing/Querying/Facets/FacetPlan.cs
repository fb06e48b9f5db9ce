using System.Text.Json;
using Folio.Indexing.Collectors;
using Folio.Indexing.Rql;
using Folio.Indexing.Search;

namespace Folio.Indexing.Querying;

/// <summary>
/// One facet of a query made ready to count on one index: its field, ranges, aggregations and options resolved
/// (a mistake in any is a <see cref="QueryException"/>, before anything is read), and the collector that counts it.
/// </summary>
internal sealed class FacetPlan
{
    private FacetPlan(RqlFacet facet, FacetOptions options, ICollector collector, List<AggregationGroup> groups, bool seedsShapes)
    {
        SeedsShapes = seedsShapes;
        Facet = facet;
        Options = options;
        Collector = collector;
        Groups = groups;
    }

    /// <summary>The facet as the query (or its stored setup) wrote it.</summary>
    public RqlFacet Facet { get; }

    public FacetOptions Options { get; }

    /// <summary>Whether text values are answered as indexed rather than in the data's most frequent spelling (<see cref="QueryOptions.SeedsFacetShapes"/>).</summary>
    public bool SeedsShapes { get; }

    /// <summary>A <see cref="TermFacetCollector"/> or a <see cref="RangeFacetCollector"/>, with an aggregator when the facet aggregates.</summary>
    public ICollector Collector { get; }

    /// <summary>The values each term or range answers: one per aggregated name, in the order first written (none without aggregations).</summary>
    public IReadOnlyList<AggregationGroup> Groups { get; }

    /// <summary>Each range's name in the answer: as written, with its <c>$parameters</c> replaced by their values.</summary>
    public IReadOnlyList<string> RangeNames { get; private init; } = [];

    /// <summary>What a query's conditions must be on for this facet to drill sideways past them: its field as the query writes it.</summary>
    public string FieldKey => Facet.Field.ToString();

    public static FacetPlan Create(RqlFacet facet, QueryCompiler compiler, bool seedsShapes)
    {
        var options = ResolveOptions(facet, compiler.Parameters);
        var (aggregator, groups) = Aggregations(facet, compiler);
        if (facet.Ranges.Count == 0 && seedsShapes && facet.Options is null)
            options = options with { SortMode = FacetTermSortMode.ValueAsc };
        if (facet.Ranges.Count == 0)
            return new FacetPlan(facet, options, new TermFacetCollector(compiler.IndexField(facet.Field, numeric: false), aggregator), groups, seedsShapes);
        if (!options.OnlySideways)
            throw new QueryException($"{facet.Text} counts ranges, which are answered all and in the order written; its options may only set Sideways.");
        var ranges = new List<ValueRange>(facet.Ranges.Count);
        var numeric = false;
        foreach (var range in facet.Ranges)
        {
            var lower = range.Lower is null ? (FieldValue?)null : compiler.Resolve(range.Lower);
            var upper = range.Upper is null ? (FieldValue?)null : compiler.Resolve(range.Upper);
            numeric |= lower?.Type is FieldValueType.Long or FieldValueType.Double || upper?.Type is FieldValueType.Long or FieldValueType.Double;
            ranges.Add(new ValueRange(lower, range.LowerInclusive, upper, range.UpperInclusive));
        }
        var names = new string[facet.Ranges.Count];
        for (var r = 0; r < names.Length; r++)
            names[r] = RangeName(facet.Ranges[r].Text, compiler.Parameters);
        return new FacetPlan(facet, options, new RangeFacetCollector(compiler.IndexField(facet.Field, numeric), ranges, aggregator), groups, seedsShapes)
        {
            RangeNames = names,
        };
    }

    /// <summary>The facet's answer, once the walk has ended (and while the searcher it ran on is open: display spellings are read from it).</summary>
    public FacetResult Answer() => Collector is TermFacetCollector terms
        ? FacetAnswer.Terms(this, terms)
        : FacetAnswer.Ranges(this, (RangeFacetCollector)Collector);

    /// <summary>
    /// The facet's options: none, a <c>$parameter</c> holding an object, or (from a stored setup) the setup's own
    /// options object as a literal.
    /// </summary>
    private static FacetOptions ResolveOptions(RqlFacet facet, JsonElement? parameters)
    {
        switch (facet.Options)
        {
            case null:
                return FacetOptions.Default;
            case RqlLiteral { Value: JsonElement stored }:
                return FacetOptions.Parse(stored, facet.Text);
            case RqlParameter parameter:
                if (parameters is not { ValueKind: JsonValueKind.Object } bag || !bag.TryGetProperty(parameter.Name, out var json))
                    throw new QueryException($"The query uses ${parameter.Name}, but QueryParameters has no '{parameter.Name}'.");
                return FacetOptions.Parse(json, facet.Text);
            default:
                throw new QueryException($"The options of {facet.Text} must be a $parameter holding an object.");
        }
    }

    /// <summary>
    /// A range as its answer names it: the seeds' clients build ranges with parameters (<c>Total &lt; $p0</c>) and look
    /// their counts up by the range with the values in (<c>Total &lt; 100</c>). A string value goes in single quotes.
    /// </summary>
    private static string RangeName(string text, JsonElement? parameters)
    {
        if (!text.Contains('$', StringComparison.Ordinal) || parameters is not { ValueKind: JsonValueKind.Object } bag)
            return text;
        var name = new System.Text.StringBuilder(text.Length + 16);
        for (var i = 0; i < text.Length; i++)
        {
            var end = i + 1;
            while (text[i] == '$' && end < text.Length && (char.IsLetterOrDigit(text[end]) || text[end] == '_'))
                end++;
            if (end > i + 1 && bag.TryGetProperty(text.AsSpan(i + 1, end - i - 1), out var value))
            {
                name.Append(value.ValueKind == JsonValueKind.String ? $"'{value.GetString()}'" : value.GetRawText());
                i = end - 1;
            }
            else
            {
                name.Append(text[i]);
            }
        }
        return name.ToString();
    }

    /// <summary>
    /// The aggregator of a facet's numbers (one index field once, however many operations read it) and the groups the
    /// answer is made of: the operations per aggregated name. Null and none without aggregations.
    /// </summary>
    private static (FacetAggregator? Aggregator, List<AggregationGroup> Groups) Aggregations(RqlFacet facet, QueryCompiler compiler)
    {
        var groups = new List<AggregationGroup>();
        if (facet.Aggregations.Count == 0)
            return (null, groups);
        var fields = new List<string>();
        foreach (var aggregation in facet.Aggregations)
        {
            var field = compiler.NumericIndexField(aggregation.Field, $"{aggregation.Op.ToString().ToLowerInvariant()}({aggregation.Field}) in {facet.Text}");
            var index = fields.IndexOf(field);
            if (index < 0)
            {
                index = fields.Count;
                fields.Add(field);
            }
            var group = groups.FindIndex(g => g.Name == aggregation.Name);
            if (group < 0)
            {
                groups.Add(new AggregationGroup(aggregation.Name, index, aggregation.Op));
                continue;
            }
            if (groups[group].Field != index)
                throw new QueryException($"{facet.Text} names two different fields '{aggregation.Name}'; give one of them another name with 'as'.");
            groups[group] = groups[group] with { Ops = groups[group].Ops | aggregation.Op };
        }
        return (new FacetAggregator(fields), groups);
    }

    /// <summary>One value per term or range in the answer: the name it carries, the aggregator's field it reads, the operations it answers.</summary>
    internal readonly record struct AggregationGroup(string Name, int Field, RqlFacetAggregationOp Ops);
}
