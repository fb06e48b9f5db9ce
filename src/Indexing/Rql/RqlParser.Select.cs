using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>The clauses after where: order by, select (fields or facets) and include.</summary>
public sealed partial class RqlParser
{
    private RqlOrder ParseOrder()
    {
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
                _ => throw Error($"Expected long, double or string after 'as' but found {typeToken.Describe()}"),
            };
            _index++;
        }
        var descending = field is null;
        if (TakeKeyword("desc") || TakeKeyword("descending"))
            descending = true;
        else if (TakeKeyword("asc") || TakeKeyword("ascending"))
            descending = false;
        return new RqlOrder(field, type, descending);
    }

    private void ParseSelect(List<RqlProjection> select, List<RqlFacet> facets)
    {
        do
        {
            if (Current.IsKeyword("facet") && Peek(1).Kind == RqlTokenKind.OpenParen)
                facets.Add(ParseFacet());
            else
                select.Add(ParseProjection());
        }
        while (Take(RqlTokenKind.Comma));
        if (facets.Count > 0 && select.Count > 0)
            throw Error("A select of facets cannot also project fields");
    }

    private RqlProjection ParseProjection()
    {
        var field = ParseField();
        var alias = field.Name;
        if (TakeKeyword("as"))
            alias = ExpectName("an alias");
        return new RqlProjection(field, alias);
    }

    private RqlFacet ParseFacet()
    {
        var start = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var ranges = new List<RqlFacetRange>();
        RqlField? field = null;
        do
        {
            var rangeStart = Current.Position;
            var current = ParseField();
            if (field is not null && !string.Equals(field.ToString(), current.ToString(), StringComparison.Ordinal))
                throw new RqlParseException($"All ranges of one facet must be on the same field ({field}, not {current})", current.Position);
            field = current;
            if (Current.Kind == RqlTokenKind.CloseParen)
                break;
            RqlFacetRange range;
            if (TakeKeyword("between"))
            {
                var low = ParseValue();
                ExpectKeyword("and");
                var high = ParseValue();
                range = new RqlFacetRange(low, true, high, true, _text[rangeStart..Current.Position].TrimEnd());
            }
            else if (Current.Kind == RqlTokenKind.Operator && Current.Text is "<" or "<=" or ">" or ">=")
            {
                var op = Current.Text;
                _index++;
                var value = ParseValue();
                var text = _text[rangeStart..Current.Position].TrimEnd();
                range = op[0] == '<'
                    ? new RqlFacetRange(null, false, value, op == "<=", text)
                    : new RqlFacetRange(value, op == ">=", null, false, text);
            }
            else
            {
                throw Error($"Expected a range (<, <=, >, >=, between) or ')' in facet() but found {Current.Describe()}");
            }
            ranges.Add(range);
        }
        while (Take(RqlTokenKind.Comma));
        var end = Current.Position + 1;
        Expect(RqlTokenKind.CloseParen, "')' to close facet()");
        return new RqlFacet(field!, ranges, _text[start..end]);
    }

    private void ParseIncludes(List<FieldPath> include)
    {
        do
            include.Add(ParseIncludePath());
        while (Take(RqlTokenKind.Comma));
    }
}
