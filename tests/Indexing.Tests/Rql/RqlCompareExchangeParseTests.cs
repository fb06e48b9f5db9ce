using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Rql;

public sealed class RqlCompareExchangeParseTests
{
    [Fact]
    public void Parse_CompareExchangeValues_KeepTheirKeys()
    {
        var parsed = RqlParser.Parse("from 'Users' where name = cmpxchg($p0) and lastName in (cmpxchg(\"Tom\"), 'x')");

        Assert.True(parsed.UsesCompareExchange);
        var and = Assert.IsType<RqlBinary>(parsed.Where);
        var byParameter = Assert.IsType<RqlCompareExchange>(Assert.IsType<RqlComparison>(and.Left).Value);
        Assert.Equal("p0", Assert.IsType<RqlParameter>(byParameter.Key).Name);
        var list = Assert.IsType<RqlIn>(and.Right);
        Assert.Equal("Tom", Assert.IsType<RqlLiteral>(Assert.IsType<RqlCompareExchange>(list.Values[0]).Key).Value);
    }

    [Fact]
    public void Parse_IncludeCompareExchange_KeepsThePathsApartFromDocumentIncludes()
    {
        var parsed = RqlParser.Parse("from Orders include Company, cmpxchg('Email'), cmpxchg(Lines[].Key) limit 1");

        Assert.Equal(["Company"], parsed.Include.Select(p => p.Text));
        Assert.Equal(["Email", "Lines[].Key"], parsed.CompareExchangeIncludes.Select(p => p.Text));
        Assert.False(parsed.UsesCompareExchange);
    }

    [Theory]
    [InlineData("from Users where Name = cmpxchg(42)")]
    [InlineData("from Users where Name = cmpxchg('a'")]
    [InlineData("from Users where Name = cmpxchg()")]
    [InlineData("from Users include cmpxchg('Email'")]
    public void Parse_MalformedCompareExchange_Throws(string query)
    {
        Assert.Throws<RqlParseException>(() => RqlParser.Parse(query));
    }

    [Fact]
    public void Parse_FieldNamedCmpxchg_StaysAField()
    {
        var parsed = RqlParser.Parse("from Users where cmpxchg = 'a' include cmpxchg");

        Assert.Equal("cmpxchg", Assert.IsType<RqlComparison>(parsed.Where).Field.Name);
        Assert.Equal(["cmpxchg"], parsed.Include.Select(p => p.Text));
    }
}
