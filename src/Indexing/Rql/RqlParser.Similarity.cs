namespace Folio.Indexing.Rql;

/// <summary>The where clause's functions over several conditions or a source document: <c>morelikethis()</c> and <c>intersect()</c>.</summary>
public sealed partial class RqlParser
{
    /// <summary><c>morelikethis(condition | document [, options])</c>.</summary>
    private RqlMoreLikeThis ParseMoreLikeThis()
    {
        var position = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        RqlExpression? source = null;
        RqlValue? document = null;
        if (Current.Kind is RqlTokenKind.String or RqlTokenKind.Parameter)
            document = ParseValue();
        else
            source = ParseOr();
        RqlValue? options = null;
        if (Take(RqlTokenKind.Comma))
            options = ParseValue();
        Expect(RqlTokenKind.CloseParen, "')' to close morelikethis()");
        return new RqlMoreLikeThis(source, document, options, position);
    }

    /// <summary><c>intersect(condition, condition, …)</c>, at least two.</summary>
    private RqlIntersect ParseIntersect()
    {
        var position = Current.Position;
        _index++;
        Expect(RqlTokenKind.OpenParen, "'('");
        var parts = new List<RqlExpression>();
        do
            parts.Add(ParseOr());
        while (Take(RqlTokenKind.Comma));
        Expect(RqlTokenKind.CloseParen, "')' to close intersect()");
        if (parts.Count < 2)
            throw new RqlParseException("intersect() takes at least two conditions, as in intersect(Color = 'Blue' and Size = 'S', Color = 'Gray')", position);
        return new RqlIntersect(parts, position);
    }
}
