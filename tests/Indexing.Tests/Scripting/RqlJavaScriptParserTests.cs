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

    [Fact]
    public void Parse_SelectOfADeclaredFunction_IsTheCallAsTheProjection()
    {
        var query = RqlParser.Parse("declare function output(e) { return { N: e.FirstName + ')' }; }\nfrom Employees as e where e.Age > 3 select output(e, f(1, (2)), 'x)') include e.Manager limit 5");
        Assert.Equal("output(e, f(1, (2)), 'x)')", query.ScriptProjection!.Text);
        Assert.Equal((2, 44), (query.ScriptProjection.Line, query.ScriptProjection.Column));
        Assert.Empty(query.Select);
        Assert.Single(query.Include);
        Assert.NotNull(query.Limit);
    }

    [Fact]
    public void Parse_PlainSelectWithLoad_IsTheProjectionItMeans()
    {
        var query = RqlParser.Parse("from Orders as o load o.Company as c select c.Name, c.'Main Address'.City as City, o.Freight, Lines[].Price as Prices, id() as Id");
        Assert.Empty(query.Select);
        Assert.Equal(
            "{ \"Name\": __folio_path(c, [\"Name\"], [false]), \"City\": __folio_path(c, [\"Main Address\", \"City\"], [false, false]), \"Freight\": __folio_path(this, [\"Freight\"], [false]), \"Prices\": __folio_path(this, [\"Lines\", \"Price\"], [true, false]), \"Id\": id(this) }",
            query.ScriptProjection!.Text);
    }

    [Fact]
    public void Parse_Filter_IsAConditionOrADeclaredFunctionWithItsLimit()
    {
        var query = RqlParser.Parse("from Employees as e where e.Title = 'Sales' filter e.Address.Country = 'USA' filter_limit 500");
        Assert.Equal("Title", Assert.IsType<RqlComparison>(query.Where).Field.Name);
        Assert.Equal("Address.Country", Assert.IsType<RqlComparison>(query.Filter).Field.Name);
        Assert.Equal(500L, Assert.IsType<RqlLiteral>(query.FilterLimit).Value);

        var scripted = RqlParser.Parse("declare function titlePrefix(r, prefix) { return r.Title.startsWith(prefix); }\nfrom Employees as e filter titlePrefix(e, $prefix) order by LastName limit 5 filter_limit 100");
        Assert.Equal("titlePrefix(e, $prefix)", scripted.FilterScript!.Text);
        Assert.Null(scripted.Filter);
        Assert.Equal(100L, Assert.IsType<RqlLiteral>(scripted.FilterLimit).Value);
        Assert.Single(scripted.OrderBy);

        Assert.False(RqlParser.Parse("from Orders where filter = 1").Filters);
    }

    [Fact]
    public void Parse_SelectOfTheAlias_IsTheWholeDocument()
    {
        var query = RqlParser.Parse("from Orders as o where o.Freight > 1 select o");
        Assert.Empty(query.Select);
        Assert.Null(query.ScriptProjection);
        var loaded = RqlParser.Parse("from Orders as o load o.Company as c select o, c");
        Assert.Equal("{ \"o\": __folio_path(this, [], []), \"c\": __folio_path(c, [], []) }", loaded.ScriptProjection!.Text);
        Assert.Contains("named 'Name'", Assert.Throws<RqlParseException>(() => RqlParser.Parse("from Orders as o load o.Company as c select c.Name, o.Name")).Message);
        Assert.Contains("is the whole document", Assert.Throws<RqlParseException>(() => RqlParser.Parse("from Orders as o select o, Freight")).Message);
    }

    [Fact]
    public void Parse_SelectOfAFunctionNotDeclared_IsNotAScript()
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse("declare function output(e) { return e; } from Employees as e select other(e)"));
        Assert.Contains("Unknown function 'other'", error.Message);
    }

    [Theory]
    [InlineData("from Orders select { X: 1", "Unterminated JavaScript block")]
    [InlineData("declare function f() from Orders", "body in braces")]
    [InlineData("from Orders update 1", "update's JavaScript")]
    [InlineData("from Orders as o load o.Company as c", "load needs a select")]
    [InlineData("from Orders as o load o.Company as c select count()", "aggregates the groups")]
    [InlineData("from Orders update { } select Freight", "")]
    [InlineData("declare function f(o) { return o; } from Orders as o select f(o", "close the call of f")]
    [InlineData("from Orders filter_limit 5", "the query has no filter")]
    [InlineData("from Orders as o filter c.Name = 'Acme' load o.Company as c select c.Name", "the loaded 'c' is not there to read")]
    [InlineData("from Orders as o select o as Doc", "it takes no name")]
    [InlineData("from Orders group by Company filter Company = 'x' select key()", "cannot be combined with group by")]
    [InlineData("declare function f(o) { return o; } from Orders as o select f(o) as X", "the whole select")]
    [InlineData("declare function f(o) { return o; } from Orders as o select f(o), Freight", "the whole select")]
    public void Parse_BadJavaScriptClauses_AreClearErrors(string text, string expected)
    {
        var error = Assert.Throws<RqlParseException>(() => RqlParser.Parse(text));
        Assert.Contains(expected, error.Message);
    }
}
