using Folio.Indexing.Rql;

namespace Folio.Indexing.Tests.Scripting;

public sealed class RqlJavaScriptParserTests
{
    [Fact]
    public void Parse_DeclareAliasLoadAndObjectLiteral_KeepsTheJavaScriptAsWritten()
    {
        var query = RqlParser.Parse("declare function total(o) {\n  return o.Lines.map(l => l.Price).reduce((a, b) => a + b, 0); // } in a comment\n}\nfrom Orders as o where o.Freight > 10 load o.Company as c select { Name: c.Name, Total: total(o), S: '}' }");
        var function = Assert.Single(query.Functions);
        Assert.StartsWith("function total(o) {", function.Text);
        Assert.EndsWith("}", function.Text);
        Assert.Equal((1, 9), (function.Line, function.Column));
        Assert.Equal("o", query.Alias);
        var comparison = Assert.IsType<RqlComparison>(query.Where);
        Assert.Equal("Freight", comparison.Field.Name);
        var load = Assert.Single(query.Loads);
        Assert.Equal(("Company", "c"), (load.Field.Name, load.Alias));
        Assert.Equal("{ Name: c.Name, Total: total(o), S: '}' }", query.ScriptProjection!.Text);
        Assert.Equal(4, query.ScriptProjection.Line);
    }

    [Fact]
    public void Parse_Update_IsTheBodyInBraces()
    {
        var query = RqlParser.Parse("from Orders where Freight > 10 update { this.Freight += `${1}`.length; }");
        Assert.Equal("{ this.Freight += `${1}`.length; }", query.Update!.Text);
        Assert.Null(query.ScriptProjection);
    }

    [Theory]
    [InlineData("from Orders select { X: 1", "Unterminated JavaScript block")]
    [InlineData("declare function f() from Orders", "body in braces")]
    [InlineData("from Orders update 1", "update's JavaScript")]
    [InlineData("from Orders as o load o.Company as c select o.Freight", "load needs a JavaScript projection")]
    [InlineData("from Orders update { } select Freight", "")]
    public void Parse_BadJavaScriptClauses_AreClearErrors(string text, string expected)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(text));
        Assert.Contains(expected, error.Message);
    }
}
