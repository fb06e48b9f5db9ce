using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>The clauses after where: order by, select (fields or facets) and include.</summary>
public sealed partial class RqlParser
{
    private RqlOrder ParseOrder()
    {
        if (Current.IsKeyword("random") && Peek(1).Kind == RqlTokenKind.OpenParen)
            return ParseRandomOrder();
        if (Current.IsKeyword("spatial.distance") && Peek(1).Kind == RqlTokenKind.OpenParen)
            return ParseDistanceOrder();
        var start = Current.Position;
        RqlField? field;
        if (Current.IsKeyword("score") && Peek(1).Kind == RqlTokenKind.OpenParen)
        {
            _index++;
            Expect(RqlTokenKind.OpenParen, "'('");
            Expect(RqlTokenKind.CloseParen, "')'");
            field = null;
        }
        else
        {
            field = ParseField();
        }
        var type = RqlOrderType.Default;
        if (TakeKeyword("as"))
        {
            var typeToken = Current;
            type = typeToken.Text.ToLowerInvariant() switch
            {
                "long" => RqlOrderType.Long,
                "double" => RqlOrderType.Double,
                "string" => RqlOrderType.String,
                "alphanumeric" => RqlOrderType.AlphaNumeric,
                _ => throw Error($"Expected long, double, string or alphanumeric after 'as' but found {typeToken.Describe()}"),
            };
            _index++;
        }
        var descending = field is null;
        if (TakeKeyword("desc") || TakeKeyword("descending"))
            descending = true;
        else if (TakeKeyword("asc") || TakeKeyword("ascending"))
            descending = false;
        return new RqlOrder(field, type, descending) { Position = start };
    }

    private void ParseSelect(List<RqlProjection> select, List<RqlFacet> facets, List<RqlSuggestion> suggestions)
    {
        var start = Current.Position;
        do
        {
            if (Current.IsKeyword("facet") && Peek(1).Kind == RqlTokenKind.OpenParen)
                facets.Add(ParseFacet());
            else if (Current.IsKeyword("suggest") && Peek(1).Kind == RqlTokenKind.OpenParen)
                suggestions.Add(ParseSuggestion());
            else
                select.Add(ParseProjection());
        }
        while (Take(RqlTokenKind.Comma));
        if (facets.Count > 0 && select.Count > 0)
            throw Error("A select of facets cannot also project fields");
        if (suggestions.Count > 0 && (select.Count > 0 || facets.Count > 0))
            throw new RqlParseException("A select of suggest() cannot also project fields or count facets", start);
    }

    /// <summary><c>suggest(field, word [, $options]) [as name]</c>: the word is a string or a <c>$parameter</c> (a word or an array of words).</summary>
    private RqlSuggestion ParseSuggestion()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        if (field.IsId)
            throw new RqlParseException("suggest() offers the terms of a field, not of id()", field.Position);
        Expect(RqlTokenKind.Comma, "',' and the word to suggest for");
        var words = ParseValue();
        if (words is RqlLiteral { Value: not string })
            throw new RqlParseException("suggest() takes a word in quotes or a $parameter", words.Position);
        RqlValue? options = null;
        if (Take(RqlTokenKind.Comma))
        {
            options = ParseValue();
            if (options is not RqlParameter)
                throw new RqlParseException("The options of suggest() are a $parameter holding an object", options.Position);
        }
        Expect(RqlTokenKind.CloseParen, "')' to close suggest()");
        string? alias = null;
        if (TakeKeyword("as"))
            alias = ExpectName("a name for the suggestions");
        return new RqlSuggestion(field, words, options, alias);
    }

    private RqlProjection ParseProjection()
    {
        var field = ParseField();
        if (Current.Kind == RqlTokenKind.OpenParen && field.Path is not null && field.Aggregate is null && !field.IsId)
            throw new RqlParseException($"Unknown function '{field.Name}' in select: a projection that calls JavaScript declares the function first (declare function {field.Name}(…) {{ … }}) or is written select {{ … }}", field.Position);
        var alias = field.Name;
        if (TakeKeyword("as"))
            alias = ExpectName("an alias");
        return new RqlProjection(field, alias);
    }

    /// <summary>
    /// <c>facet(field [, aggregation…] [, $options]) [as name]</c>, <c>facet(range, … [, aggregation…] [, $options]) [as name]</c>
    /// or <c>facet(id('setup'))</c>. The field or the ranges come first; aggregations are <c>sum|min|max|avg(field) [as name]</c>.
    /// </summary>
    private RqlFacet ParseFacet()
    {
        var start = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        if (Current.IsKeyword("id") && Peek(1).Kind == RqlTokenKind.OpenParen && Peek(2).Kind is RqlTokenKind.String or RqlTokenKind.Parameter)
            return ParseFacetSetup(start);
        var ranges = new List<RqlFacetRange>();
        var aggregations = new List<RqlFacetAggregation>();
        RqlField? field = null;
        RqlValue? options = null;
        do
        {
            if (FacetAggregationOp(Current) is { } op && Peek(1).Kind == RqlTokenKind.OpenParen)
            {
                if (field is null)
                    throw Error("facet() starts with the field or the ranges it counts, then its aggregations");
                aggregations.Add(ParseFacetAggregation(op));
                continue;
            }
            if (Current.Kind == RqlTokenKind.Parameter)
            {
                if (field is null || options is not null)
                    throw Error(field is null ? "facet() starts with the field or the ranges it counts, then its options" : "facet() takes one $parameter of options");
                options = ParseValue();
                continue;
            }
            if (aggregations.Count > 0 || options is not null || (field is not null && ranges.Count == 0))
                throw Error($"Expected an aggregation (sum, min, max, avg), a $parameter of options or ')' in facet() but found {Current.Describe()}");
            var rangeStart = Current.Position;
            var current = ParseField();
            if (field is not null && !string.Equals(field.ToString(), current.ToString(), StringComparison.Ordinal))
                throw new RqlParseException($"All ranges of one facet must be on the same field ({field}, not {current})", current.Position);
            field = current;
            if (Current.Kind is RqlTokenKind.CloseParen or RqlTokenKind.Comma && ranges.Count == 0)
                continue;
            ranges.Add(ParseFacetRange(rangeStart, current));
        }
        while (Take(RqlTokenKind.Comma));
        var end = Current.Position + 1;
        Expect(RqlTokenKind.CloseParen, "')' to close facet()");
        return new RqlFacet(field!, ranges, _text[start..end]) { Aggregations = aggregations, Options = options, Alias = ParseFacetAlias() };
    }

    /// <summary>
    /// The rest of a range after its field: <c>between a and b</c>, one of <c>&lt; &lt;= &gt; &gt;=</c> and a value, or
    /// two such bounds on the field joined by <c>and</c> (<c>Price &gt;= 10 and Price &lt; 20</c>).
    /// </summary>
    private RqlFacetRange ParseFacetRange(int rangeStart, RqlField rangeField)
    {
        if (TakeKeyword("between"))
        {
            var low = ParseValue();
            ExpectKeyword("and");
            var high = ParseValue();
            return new RqlFacetRange(low, true, high, true, _text[rangeStart..Current.Position].TrimEnd());
        }
        var (op, value) = ParseFacetBound();
        if (Current.IsKeyword("and"))
        {
            // The seeds' two-sided range: field >= a and field < b (either bound first).
            _index++;
            var fieldAt = Current.Position;
            var field = ParseField();
            if (!string.Equals(field.ToString(), rangeField.ToString(), StringComparison.Ordinal))
                throw new RqlParseException($"Both bounds of a facet range must be on its field ({rangeField}, not {field})", fieldAt);
            var (otherOp, otherValue) = ParseFacetBound();
            if ((op[0] == '<') == (otherOp[0] == '<'))
                throw new RqlParseException("A facet range joined with 'and' needs a lower bound (> or >=) and an upper bound (< or <=)", fieldAt);
            var both = _text[rangeStart..Current.Position].TrimEnd();
            return op[0] == '<'
                ? new RqlFacetRange(otherValue, otherOp == ">=", value, op == "<=", both)
                : new RqlFacetRange(value, op == ">=", otherValue, otherOp == "<=", both);
        }
        var text = _text[rangeStart..Current.Position].TrimEnd();
        return op[0] == '<'
            ? new RqlFacetRange(null, false, value, op == "<=", text)
            : new RqlFacetRange(value, op == ">=", null, false, text);
    }

    private (string Op, RqlValue Value) ParseFacetBound()
    {
        if (Current.Kind != RqlTokenKind.Operator || Current.Text is not ("<" or "<=" or ">" or ">="))
            throw Error($"Expected a range (<, <=, >, >=, between) or ')' in facet() but found {Current.Describe()}");
        var op = Current.Text;
        _index++;
        return (op, ParseValue());
    }

    /// <summary><c>facet(id('facets/Search'))</c> (or <c>id($setup)</c>): the facets a stored setup document lists.</summary>
    private RqlFacet ParseFacetSetup(int start)
    {
        var idToken = Current;
        _index += 2;
        var id = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close id()");
        var end = Current.Position + 1;
        Expect(RqlTokenKind.CloseParen, "')' to close facet() (a facet setup takes nothing more)");
        if (Current.IsKeyword("as"))
            throw Error("The facets of a setup are named by the setup document (DisplayFieldName), not by 'as'");
        return new RqlFacet(new RqlField(null, idToken.Position), [], _text[start..end]) { SetupId = id };
    }

    private RqlFacetAggregation ParseFacetAggregation(RqlFacetAggregationOp op)
    {
        var name = Current.Text;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        if (field.IsId)
            throw new RqlParseException($"{name}() aggregates a field's numbers, not id()", field.Position);
        Expect(RqlTokenKind.CloseParen, $"')' to close {name}()");
        string? alias = null;
        if (TakeKeyword("as"))
            alias = ExpectName("a name for the aggregated field");
        return new RqlFacetAggregation(op, field, alias);
    }

    private string? ParseFacetAlias() => TakeKeyword("as") ? ExpectName("a facet name") : null;

    private static RqlFacetAggregationOp? FacetAggregationOp(RqlToken token) =>
        token.Kind != RqlTokenKind.Identifier ? null : token.Text.ToLowerInvariant() switch
        {
            "sum" => RqlFacetAggregationOp.Sum,
            "min" => RqlFacetAggregationOp.Min,
            "max" => RqlFacetAggregationOp.Max,
            "avg" or "average" => RqlFacetAggregationOp.Average,
            _ => null,
        };

    /// <summary>
    /// Reads a stored facet setup's range facet (its <c>Ranges</c>, each as RQL writes a range: <c>Price &lt; 200</c>,
    /// <c>Price between 200 and 600</c>) as <c>facet(…)</c> would; throws <see cref="RqlParseException"/> naming the range.
    /// </summary>
    public static RqlFacet ParseFacetRanges(IReadOnlyList<string> ranges)
    {
        ArgumentNullException.ThrowIfNull(ranges);
        if (ranges.Count == 0)
            throw new RqlParseException("A range facet needs at least one range", 0);
        foreach (var range in ranges)
        {
            // Each range alone, so an error names its own text and a range cannot smuggle in more arguments.
            var parser = new RqlParser("facet(" + range + ")");
            var single = parser.ParseFacet();
            if (parser.Current.Kind != RqlTokenKind.End || single.Ranges.Count != 1 || single.Aggregations.Count > 0 || single.Options is not null)
                throw new RqlParseException($"'{range}' is not one range (Price < 200, Price between 200 and 600, Price >= 600)", 0);
        }
        var all = new RqlParser("facet(" + string.Join(", ", ranges) + ")");
        var facet = all.ParseFacet();
        return facet;
    }

    private void ParseIncludes(List<FieldPath> include, List<RqlHighlight> highlights)
    {
        do
        {
            if (Current.IsKeyword("highlight") && Peek(1).Kind == RqlTokenKind.OpenParen)
                highlights.Add(ParseHighlight());
            else if (AtIncludeDiagnostics())
                ParseIncludeDiagnostics();
            else if (AtCompareExchange())
                _compareExchangeIncludes.Add(ParseCompareExchangeInclude());
            else
                include.Add(ParseIncludePath());
        }
        while (Take(RqlTokenKind.Comma));
    }

    /// <summary><c>highlight(field, fragmentLength, fragmentCount [, $options])</c>.</summary>
    private RqlHighlight ParseHighlight()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        if (field.Path is null || field.Aggregate is not null)
            throw new RqlParseException("highlight() takes a full-text field", field.Position);
        Expect(RqlTokenKind.Comma, "',' and the fragment length of highlight()");
        var length = ParseValue();
        Expect(RqlTokenKind.Comma, "',' and the fragment count of highlight()");
        var count = ParseValue();
        RqlValue? options = null;
        if (Take(RqlTokenKind.Comma))
        {
            if (Current.Kind != RqlTokenKind.Parameter)
                throw Error($"Expected a $parameter holding highlight()'s options but found {Current.Describe()}");
            options = ParseValue();
        }
        Expect(RqlTokenKind.CloseParen, "')' to close highlight()");
        return new RqlHighlight(field, length, count, options);
    }
}
