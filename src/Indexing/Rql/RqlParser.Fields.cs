using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>Field references: where a query's tokens become a field.</summary>
public sealed partial class RqlParser
{
    /// <summary>
    /// Reads a field reference; every clause that names a field reads it here (where: left of an operator
    /// and first argument of a function; order by; select; facet; include; group by once map/reduce comes).
    /// <c>id()</c> is the document id; anything else is the <see cref="FieldPath"/> definitions use, made of
    /// bare names (<c>Lines[].Product</c>), one quoted name, which is one property whatever it holds
    /// (<c>'Major Genre'</c>, <c>'a.b'</c>, <c>'It\'s'</c>), or both joined (<c>Address.'e-mail'</c>,
    /// <c>'Sales Lines'[].'Unit Price'</c>). A bare clause keyword is not a field; quoted, it is one.
    /// </summary>
    private RqlField ParseField()
    {
        var token = Current;
        if (token.Kind == RqlTokenKind.Identifier && Peek(1).Kind == RqlTokenKind.OpenParen && AggregateName(token.Text) is { } aggregate)
            return ParseAggregate(token, aggregate);
        if (token.IsKeyword("key") && Peek(1).Kind == RqlTokenKind.OpenParen && Peek(2).Kind == RqlTokenKind.CloseParen)
        {
            _index += 3;
            return new RqlField(null, token.Position) { Aggregate = RqlField.KeyFunction };
        }
        if (token.IsKeyword("id") && Peek(1).Kind == RqlTokenKind.OpenParen)
        {
            _index++;
            Expect(RqlTokenKind.OpenParen, "'('");
            Expect(RqlTokenKind.CloseParen, "')' (id() takes no arguments)");
            return new RqlField(null, token.Position);
        }
        PathSegment[] segments;
        switch (token.Kind)
        {
            case RqlTokenKind.String:
                segments = [new PathSegment(token.Text)];
                break;
            case RqlTokenKind.Path:
            case RqlTokenKind.Identifier when !IsClauseKeyword(token):
                segments = StripAlias(token.Segments!);
                break;
            default:
                throw Error($"Expected a field name but found {token.Describe()} (a name that is a clause keyword goes in quotes)");
        }
        _index++;
        return new RqlField(FieldPath.FromSegments(segments), token.Position);
    }

    /// <summary>A group by field: a field, or <c>array(path)</c>, the path's values together as one group.</summary>
    private RqlField ParseGroupField()
    {
        var token = Current;
        if (!token.IsKeyword("array") || Peek(1).Kind != RqlTokenKind.OpenParen)
            return ParseField();
        _index += 2;
        var inner = ParseField();
        if (inner.Path is null || inner.Aggregate is not null)
            throw new RqlParseException($"array() groups by the values of a path, not {inner}", inner.Position);
        Expect(RqlTokenKind.CloseParen, "')' to close array()");
        return new RqlField(inner.Path, token.Position) { Aggregate = RqlField.ArrayFunction };
    }

    /// <summary><c>count()</c>, or <c>count|sum|min|max|avg(field)</c>: an aggregate of a group by query.</summary>
    private RqlField ParseAggregate(RqlToken token, string aggregate)
    {
        _index += 2;
        if (Take(RqlTokenKind.CloseParen))
        {
            if (aggregate != "count")
                throw new RqlParseException($"{aggregate}() needs a field: {aggregate}(Freight)", token.Position);
            return new RqlField(null, token.Position) { Aggregate = aggregate };
        }
        var argument = ParseField();
        if (argument.Path is null || argument.Aggregate is not null)
            throw new RqlParseException($"{aggregate}() takes a field, not {argument}", argument.Position);
        Expect(RqlTokenKind.CloseParen, $"')' to close {aggregate}()");
        return new RqlField(argument.Path, token.Position) { Aggregate = aggregate };
    }

    private static string? AggregateName(string text) => text.ToLowerInvariant() switch
    {
        "count" => "count",
        "sum" => "sum",
        "min" => "min",
        "max" => "max",
        "avg" or "average" => "avg",
        _ => null,
    };

    /// <summary>
    /// Reads one path after include. A string alone is the text of a path, as the seeds' clients send
    /// includes (<c>include 'Lines[].Product'</c>, <c>include 'Address.e-mail'</c>), so a name that needs
    /// quotes keeps them inside it (<c>include "'a.b'"</c>); a string that is no path's text can only mean
    /// one property's name (<c>include 'Ref Ids'</c>). Anything else reads as a field reads anywhere
    /// (<c>include Refs.'a.b'</c>, <c>include 'Ref Ids'[]</c>).
    /// </summary>
    private FieldPath ParseIncludePath()
    {
        var token = Current;
        if (token.Kind == RqlTokenKind.String)
        {
            _index++;
            try
            {
                return FieldPath.Parse(token.Text);
            }
            catch (FieldPathException)
            {
                return FieldPath.FromSegments([new PathSegment(token.Text)]);
            }
        }
        var field = ParseField();
        return field.Path ?? throw new RqlParseException("include takes a path whose values are document ids, not id()", field.Position);
    }
}
