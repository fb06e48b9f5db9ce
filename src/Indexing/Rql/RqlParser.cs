using System.Globalization;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// Parses Folio's RQL subset:
/// <code>
/// from Collection | from index 'Name'
/// [where condition]   condition: or/and/not, parentheses, field (= != &lt; &lt;= &gt; &gt;=) value,
///                     field between a and b, field in (…), search(f, 'text'), startsWith(f, 'p'),
///                     endsWith(f, 's'), exists(f), id() = 'x'
/// [order by key [as long|double|string] [asc|desc], …]   (key: a field or score())
/// [select f [as alias], … | select facet(f), facet(range, …), …]
/// [include path, …] [limit n [offset m] | limit m, n] [offset m] (include may also follow limit)
/// </code>
/// An include path is a <see cref="FieldPath"/>, bare (<c>include Lines[].Product</c>) or as the text
/// of a string (<c>include 'Lines[].Product'</c>, as the seeds' clients send it); a name that needs
/// quotes in the path keeps them inside the string (<c>include "'Ref Ids'"</c>).
/// </summary>
public sealed class RqlParser
{
    private static readonly string[] ClauseKeywords = ["where", "order", "select", "include", "limit", "offset"];

    private readonly string _text;
    private readonly List<RqlToken> _tokens;
    private int _index;

    private RqlParser(string text)
    {
        _text = text;
        _tokens = RqlLexer.Tokenize(text);
    }

    /// <summary>Parses <paramref name="text"/>; throws <see cref="RqlParseException"/> with the position and what was expected.</summary>
    public static RqlQuery Parse(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        return new RqlParser(text).ParseQuery();
    }

    private RqlToken Current => _tokens[_index];

    private RqlQuery ParseQuery()
    {
        ExpectKeyword("from");
        RqlSource source;
        if (Current.IsKeyword("index"))
        {
            _index++;
            source = new RqlSource(null, ExpectString("an index name in quotes"));
        }
        else
        {
            source = new RqlSource(ExpectName("a collection name"), null);
        }

        RqlExpression? where = null;
        var orderBy = new List<RqlOrder>();
        var select = new List<RqlProjection>();
        var facets = new List<RqlFacet>();
        var include = new List<FieldPath>();
        RqlValue? limit = null, offset = null;

        if (TakeKeyword("where"))
            where = ParseOr();
        if (TakeKeyword("order"))
        {
            ExpectKeyword("by");
            do
                orderBy.Add(ParseOrder());
            while (Take(RqlTokenKind.Comma));
        }
        if (TakeKeyword("select"))
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
        if (TakeKeyword("include"))
            ParseIncludes(include);
        if (TakeKeyword("limit"))
        {
            limit = ParseValue();
            if (Take(RqlTokenKind.Comma))
            {
                offset = limit;
                limit = ParseValue();
            }
            else if (TakeKeyword("offset"))
            {
                offset = ParseValue();
            }
        }
        if (offset is null && TakeKeyword("offset"))
            offset = ParseValue();
        // RavenDB users write include after limit as often as before it.
        if (include.Count == 0 && TakeKeyword("include"))
            ParseIncludes(include);
        if (Current.Kind != RqlTokenKind.End)
            throw Error($"Expected where, order by, select, include, limit or the end of the query but found {Current.Describe()}");
        return new RqlQuery(source, where, orderBy, select, facets, include, limit, offset);
    }

    private RqlExpression ParseOr()
    {
        var left = ParseAnd();
        while (TakeKeyword("or"))
            left = new RqlBinary(false, left, ParseAnd());
        return left;
    }

    private RqlExpression ParseAnd()
    {
        var left = ParseUnary();
        while (TakeKeyword("and"))
            left = new RqlBinary(true, left, ParseUnary());
        return left;
    }

    private RqlExpression ParseUnary()
    {
        if (TakeKeyword("not"))
            return new RqlNot(ParseUnary());
        if (Take(RqlTokenKind.OpenParen))
        {
            var inner = ParseOr();
            Expect(RqlTokenKind.CloseParen, "')'");
            return inner;
        }
        return ParseCondition();
    }

    private RqlExpression ParseCondition()
    {
        if (Current.Kind == RqlTokenKind.Identifier && Peek(1).Kind == RqlTokenKind.OpenParen && !Current.IsKeyword("id"))
            return ParseFunction();

        var field = ParseField();
        if (Current.Kind == RqlTokenKind.Operator)
        {
            var op = Current.Text;
            _index++;
            return new RqlComparison(field, op, ParseValue());
        }
        if (TakeKeyword("between"))
        {
            var low = ParseValue();
            ExpectKeyword("and");
            return new RqlBetween(field, low, ParseValue());
        }
        if (TakeKeyword("in"))
        {
            Expect(RqlTokenKind.OpenParen, "'(' to open the list of values");
            var values = new List<RqlValue>();
            if (Current.Kind != RqlTokenKind.CloseParen)
            {
                do
                    values.Add(ParseValue());
                while (Take(RqlTokenKind.Comma));
            }
            Expect(RqlTokenKind.CloseParen, "')' to close the list of values");
            return new RqlIn(field, values);
        }
        throw Error($"Expected an operator (=, !=, <, <=, >, >=, between, in) after '{field.Path}' but found {Current.Describe()}");
    }

    private RqlExpression ParseFunction()
    {
        var nameToken = Current;
        var name = nameToken.Text.ToLowerInvariant();
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        RqlValue? argument = null;
        switch (name)
        {
            case "exists":
                break;
            case "search" or "startswith" or "endswith":
                Expect(RqlTokenKind.Comma, $"',' and the second argument of {nameToken.Text}()");
                argument = ParseValue();
                break;
            default:
                throw new RqlParseException($"Unknown function '{nameToken.Text}' (expected search, startsWith, endsWith, exists or id)", nameToken.Position);
        }
        Expect(RqlTokenKind.CloseParen, $"')' to close {nameToken.Text}()");
        return new RqlFunction(name, field, argument);
    }

    private RqlField ParseField()
    {
        var token = Current;
        if (token.IsKeyword("id") && Peek(1).Kind == RqlTokenKind.OpenParen)
        {
            _index++;
            Expect(RqlTokenKind.OpenParen, "'('");
            Expect(RqlTokenKind.CloseParen, "')' (id() takes no arguments)");
            return new RqlField(RqlField.IdPath, token.Position);
        }
        if (token.Kind == RqlTokenKind.String)
        {
            _index++;
            return new RqlField(token.Text, token.Position);
        }
        if (token.Kind != RqlTokenKind.Identifier || IsClauseKeyword(token))
            throw Error($"Expected a field name but found {token.Describe()}");
        _index++;
        return new RqlField(token.Text, token.Position);
    }

    private RqlValue ParseValue()
    {
        var token = Current;
        switch (token.Kind)
        {
            case RqlTokenKind.String:
                _index++;
                return new RqlLiteral(token.Text, token.Position);
            case RqlTokenKind.Parameter:
                _index++;
                return new RqlParameter(token.Text, token.Position);
            case RqlTokenKind.Number:
                _index++;
                if (long.TryParse(token.Text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var integer))
                    return new RqlLiteral(integer, token.Position);
                if (double.TryParse(token.Text, NumberStyles.Float, CultureInfo.InvariantCulture, out var real))
                    return new RqlLiteral(real, token.Position);
                throw new RqlParseException($"'{token.Text}' is not a number", token.Position);
            case RqlTokenKind.Identifier when token.IsKeyword("true") || token.IsKeyword("false"):
                _index++;
                return new RqlLiteral(token.IsKeyword("true"), token.Position);
            case RqlTokenKind.Identifier when token.IsKeyword("null"):
                _index++;
                return new RqlLiteral(null, token.Position);
            default:
                throw Error($"Expected a value (a 'string', a number, true, false, null or a $parameter) but found {token.Describe()}");
        }
    }

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

    private RqlProjection ParseProjection()
    {
        var field = ParseField();
        var alias = field.Path;
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
            if (field is not null && !string.Equals(field.Path, current.Path, StringComparison.Ordinal))
                throw new RqlParseException($"All ranges of one facet must be on the same field ('{field.Path}', not '{current.Path}')", current.Position);
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

    private RqlToken Peek(int ahead) => _tokens[Math.Min(_index + ahead, _tokens.Count - 1)];

    private bool Take(RqlTokenKind kind)
    {
        if (Current.Kind != kind)
            return false;
        _index++;
        return true;
    }

    private bool TakeKeyword(string keyword)
    {
        if (!Current.IsKeyword(keyword))
            return false;
        _index++;
        return true;
    }

    private void Expect(RqlTokenKind kind, string what)
    {
        if (!Take(kind))
            throw Error($"Expected {what} but found {Current.Describe()}");
    }

    private void ExpectKeyword(string keyword)
    {
        if (!TakeKeyword(keyword))
            throw Error($"Expected '{keyword}' but found {Current.Describe()}");
    }

    private string ExpectString(string what)
    {
        if (Current.Kind != RqlTokenKind.String)
            throw Error($"Expected {what} but found {Current.Describe()}");
        return _tokens[_index++].Text;
    }

    private string ExpectName(string what)
    {
        if (Current.Kind is not (RqlTokenKind.Identifier or RqlTokenKind.String) || IsClauseKeyword(Current))
            throw Error($"Expected {what} but found {Current.Describe()}");
        return _tokens[_index++].Text;
    }

    private void ParseIncludes(List<FieldPath> include)
    {
        do
        {
            var token = Current;
            var text = ExpectName("a path to include");
            try
            {
                include.Add(FieldPath.Parse(text));
            }
            catch (FieldPathException e)
            {
                // A string's quotes are the query's, not the path's, so a name needing quotes repeats them inside.
                if (token.Kind == RqlTokenKind.String)
                    throw new RqlParseException($"Invalid include path: {e.Message} A quoted include holds a path whose names keep their own quotes, as in include \"'Unit Price'\".", token.Position);
                throw new RqlParseException($"Invalid include path: {e.Message}", token.Position + e.Position);
            }
        }
        while (Take(RqlTokenKind.Comma));
    }

    private static bool IsClauseKeyword(RqlToken token)
    {
        foreach (var keyword in ClauseKeywords)
        {
            if (token.IsKeyword(keyword))
                return true;
        }
        return false;
    }

    private RqlParseException Error(string message) => new(message, Current.Position);
}
