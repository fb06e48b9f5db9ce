using System.Globalization;

namespace Folio.Indexing.Rql;

/// <summary>The where clause: conditions joined by and, or, not and parentheses, and the values they compare with.</summary>
public sealed partial class RqlParser
{
    /// <summary>
    /// How deep conditions may nest (parentheses, <c>not</c>, and functions holding conditions): every later stage
    /// walks the tree recursively, so a query of ten thousand parentheses would otherwise overflow the stack.
    /// </summary>
    public const int MaxNesting = 128;

    // Chains of and/or up to this long keep the left-deep shape they are written in; a longer one is built
    // balanced, so the tree's depth grows with the logarithm of its length (a generated chain of 100,000 ors
    // would otherwise be 100,000 levels deep for every recursive walk after the parser).
    private const int LeftDeepChain = 32;

    private int _nesting;

    private RqlExpression ParseOr()
    {
        Enter();
        try
        {
            var first = ParseAnd();
            if (!Current.IsKeyword("or"))
                return first;
            var operands = new List<RqlExpression> { first };
            while (TakeKeyword("or"))
                operands.Add(ParseAnd());
            return Chain(false, operands);
        }
        finally
        {
            _nesting--;
        }
    }

    private RqlExpression ParseAnd()
    {
        var first = ParseUnary();
        if (!Current.IsKeyword("and"))
            return first;
        var operands = new List<RqlExpression> { first };
        while (TakeKeyword("and"))
            operands.Add(ParseUnary());
        return Chain(true, operands);
    }

    private static RqlExpression Chain(bool isAnd, List<RqlExpression> operands)
    {
        if (operands.Count > LeftDeepChain)
            return Balanced(isAnd, operands, 0, operands.Count);
        var left = operands[0];
        for (var i = 1; i < operands.Count; i++)
            left = new RqlBinary(isAnd, left, operands[i]);
        return left;
    }

    private static RqlExpression Balanced(bool isAnd, List<RqlExpression> operands, int start, int end)
    {
        if (end - start == 1)
            return operands[start];
        var middle = start + ((end - start) / 2);
        return new RqlBinary(isAnd, Balanced(isAnd, operands, start, middle), Balanced(isAnd, operands, middle, end));
    }

    /// <summary>One level deeper into nested conditions; the caller leaves it with <c>_nesting--</c>.</summary>
    private void Enter()
    {
        if (++_nesting > MaxNesting)
            throw Error($"The query nests conditions more than {MaxNesting} levels deep (parentheses, not, and functions holding conditions count)");
    }

    private RqlExpression ParseUnary()
    {
        if (TakeKeyword("not"))
        {
            Enter();
            try
            {
                return new RqlNot(ParseUnary());
            }
            finally
            {
                _nesting--;
            }
        }
        if (AtBareTrue())
        {
            _index++;
            return new RqlTrue();
        }
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
        if (Current.Kind == RqlTokenKind.Identifier && Peek(1).Kind == RqlTokenKind.OpenParen && !Current.IsKeyword("id") && AggregateName(Current.Text) is null)
            return ParseFunction();

        var field = ParseField();
        if (Current.IsKeyword("all") && Peek(1).IsKeyword("in"))
            return ParseAllIn(field);
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
        throw Error($"Expected an operator (=, !=, <, <=, >, >=, between, in, all in) after {field} but found {Current.Describe()}");
    }

    private RqlExpression ParseFunction()
    {
        // Functions nest too: fuzzy(fuzzy(fuzzy(… parses each through the next without passing ParseOr.
        Enter();
        try
        {
            return ParseFunctionCall();
        }
        finally
        {
            _nesting--;
        }
    }

    private RqlExpression ParseFunctionCall()
    {
        var nameToken = Current;
        var name = nameToken.Text.ToLowerInvariant();
        switch (name)
        {
            case "boost":
                return ParseBoost();
            case "fuzzy":
                return ParseFuzzy();
            case "proximity":
                return ParseProximity();
            case "exact":
                return ParseExact();
            case "morelikethis":
                return ParseMoreLikeThis();
            case "intersect":
                return ParseIntersect();
            case var spatial when spatial.StartsWith("spatial.", StringComparison.Ordinal):
                return ParseSpatial();
            case "lucene":
                return ParseLucene();
            case not ("exists" or "search" or "startswith" or "endswith" or "regex"):
                throw new RqlParseException($"Unknown function '{nameToken.Text}' (expected search, lucene, startsWith, endsWith, exists, regex, exact, boost, fuzzy, proximity, morelikethis, intersect, spatial.within, spatial.intersects, spatial.disjoint, id, or with group by count, sum, min, max, avg)", nameToken.Position);
        }
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        RqlValue? argument = null;
        var requireAll = false;
        if (name != "exists")
        {
            Expect(RqlTokenKind.Comma, $"',' and the second argument of {nameToken.Text}()");
            argument = ParseValue();
            if (name == "search" && Take(RqlTokenKind.Comma))
                requireAll = ParseSearchOperator();
        }
        Expect(RqlTokenKind.CloseParen, $"')' to close {nameToken.Text}()");
        return new RqlFunction(name, field, argument) { RequireAll = requireAll };
    }

    /// <summary><c>lucene(field, 'text')</c> or <c>lucene(field, 'text', exact)</c>: the text in Lucene's syntax (<see cref="LuceneSyntax"/>).</summary>
    private RqlFunction ParseLucene()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var field = ParseField();
        Expect(RqlTokenKind.Comma, "',' and the text of lucene()");
        var text = ParseValue();
        var exact = false;
        if (Take(RqlTokenKind.Comma))
        {
            var start = Current.Position;
            if (ParseValue() is not RqlLiteral { Value: bool flag })
                throw new RqlParseException("lucene()'s third argument is true (match the terms as written) or false", start);
            exact = flag;
        }
        Expect(RqlTokenKind.CloseParen, "')' to close lucene()");
        return new RqlFunction("lucene", field, text) { Exact = exact };
    }

    /// <summary><c>boost(condition, factor)</c>: any condition of the where clause.</summary>
    private RqlBoost ParseBoost()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var inner = ParseOr();
        Expect(RqlTokenKind.Comma, "',' and the factor of boost()");
        var factor = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close boost()");
        return new RqlBoost(inner, factor);
    }

    /// <summary><c>fuzzy(field = 'value', factor)</c>.</summary>
    private RqlFuzzy ParseFuzzy()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var start = Current.Position;
        if (ParseCondition() is not RqlComparison { Operator: "=" } comparison)
            throw new RqlParseException("fuzzy() takes an equality, as in fuzzy(Name = 'Ernts Hnadel', 0.5)", start);
        Expect(RqlTokenKind.Comma, "',' and the factor of fuzzy()");
        var factor = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close fuzzy()");
        return new RqlFuzzy(comparison, factor);
    }

    /// <summary><c>proximity(search(field, 'words'), slop)</c>.</summary>
    private RqlProximity ParseProximity()
    {
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var start = Current.Position;
        if (!Current.IsKeyword("search") || ParseFunction() is not RqlFunction search)
            throw new RqlParseException("proximity() takes a search(), as in proximity(search(Notes, 'fluent french'), 5)", start);
        Expect(RqlTokenKind.Comma, "',' and the slop of proximity()");
        var slop = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close proximity()");
        return new RqlProximity(search, slop);
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
            case RqlTokenKind.Identifier when AtCompareExchange():
                return ParseCompareExchange();
            default:
                throw Error($"Expected a value (a 'string', a number, true, false, null or a $parameter) but found {token.Describe()}");
        }
    }
}
