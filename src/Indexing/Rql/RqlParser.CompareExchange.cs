using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

public sealed partial class RqlParser
{
    private readonly List<FieldPath> _compareExchangeIncludes = [];
    private bool _usesCompareExchange;

    private bool AtCompareExchange() => Current.IsKeyword("cmpxchg") && Peek(1).Kind == RqlTokenKind.OpenParen;

    /// <summary><c>cmpxchg('key')</c> or <c>cmpxchg($p)</c> as a value: the compare-exchange value stored under the key.</summary>
    private RqlCompareExchange ParseCompareExchange()
    {
        var position = Current.Position;
        _index += 2;
        var key = ParseValue();
        if (key is not (RqlParameter or RqlLiteral { Value: string }))
            throw new RqlParseException("cmpxchg() takes a key: a 'string' or a $parameter", key.Position);
        Expect(RqlTokenKind.CloseParen, "')' to close cmpxchg()");
        _usesCompareExchange = true;
        return new RqlCompareExchange(key, position);
    }

    /// <summary><c>include cmpxchg('Path')</c>: the compare-exchange values whose keys the path's values are.</summary>
    private FieldPath ParseCompareExchangeInclude()
    {
        _index += 2;
        var path = ParseIncludePath();
        Expect(RqlTokenKind.CloseParen, "')' to close cmpxchg()");
        return path;
    }
}
