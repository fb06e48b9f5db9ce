using Folio.Indexing.Definitions;
using Folio.Indexing.Tests.Support;

namespace Folio.Indexing.Tests.ScriptMaps;

/// <summary>
/// Indexes whose map is a JavaScript program (<see cref="IndexDefinition.MapScript"/>): the definition's checks and JSON,
/// and what the index then holds on both engines (entries per returned object, fan-out, load, errors, map/reduce).
/// </summary>
public sealed class MapScriptIndexTests
{
    private const string UsersByFullName = """
        {"Name":"Users/ByFullName","Collections":["Users"],"SearchEngine":"ENGINE",
         "MapScript":"function full(u) { return u.First + ' ' + u.Last; }\nmap('Users', u => u.Hidden ? undefined : { full: full(u), kind: 'user', n: u.Tags.length })",
         "Fields":{"full":{"Path":"full"},"kind":{"Path":"kind"},"n":{"Path":"n","Type":"Long"}}}
        """;

    public static TheoryData<string> Engines => ["Folio", "Lucene"];

    [Fact]
    public void Parse_MapScript_RoundTripsAndSurvivesAChangeOfEngine()
    {
        var definition = InMemoryDatabase.Definition(UsersByFullName.Replace("ENGINE", "Folio", StringComparison.Ordinal));

        Assert.True(definition.IsFanOut);
        Assert.True(definition.SameAs(InMemoryDatabase.Definition(IndexDefinitionJson.ToJson(definition))));
        Assert.Equal(definition.MapScript, definition.WithSearchEngine("lucene").MapScript);
    }

    [Theory]
    [InlineData("map('Users', u => ({ a: u.a ))", "Script syntax error")]
    [InlineData("map('Orders', u => ({ a: u.a }))", "no map for collection 'Users'")]
    [InlineData("map('Users', u => ({ a: 1 })); map('Orders', o => ({ a: 2 }))", "maps collection 'orders'")]
    [InlineData("var x = 1;", "registers no map")]
    [InlineData("throw new Error('top level')", "top level")]
    [InlineData("while (true) { }", "limit")]
    public void Parse_BadMapScript_IsRefusedSayingWhy(string script, string message)
    {
        var json = $$$$"""{"Name":"X","Collections":["Users"],"MapScript":{{{{System.Text.Json.JsonSerializer.Serialize(script)}}}},"Fields":{"a":{"Path":"a"}}}""";

        var error = Assert.Throws<IndexDefinitionException>(() => InMemoryDatabase.Definition(json));

        Assert.Contains(message, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Parse_MapScriptWithForEach_IsRefused()
    {
        var error = Assert.Throws<IndexDefinitionException>(() => InMemoryDatabase.Definition(
            """{"Name":"X","Collections":["Users"],"ForEach":"Tags[]","MapScript":"map('Users', u => ({ a: 1 }))","Fields":{"a":{"Path":"a"}}}"""));

        Assert.Contains("ForEach", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Query_MapScript_FindsDocumentsByWhatTheScriptReturned(string engine)
    {
        using var db = new InMemoryDatabase();
        db.Indexes.Put([InMemoryDatabase.Definition(UsersByFullName.Replace("ENGINE", engine, StringComparison.Ordinal))]);
        await db.PutAsync("users/1", """{"First":"Ada","Last":"Lovelace","Tags":["a","b"],"@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/2", """{"First":"Alan","Last":"Turing","Tags":[],"@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/3", """{"First":"Hid","Last":"Den","Tags":[],"Hidden":true,"@metadata":{"@collection":"Users"}}""");

        var (byName, index) = await db.QueryAsync("from index 'Users/ByFullName' where full = 'Ada Lovelace'");
        Assert.Equal("Users/ByFullName", index);
        Assert.Contains("users/1", Assert.Single(byName), StringComparison.Ordinal);
        var (byCount, _) = await db.QueryAsync("from index 'Users/ByFullName' where n >= 2");
        Assert.Single(byCount);
        var (all, _) = await db.QueryAsync("from index 'Users/ByFullName' where kind = 'user'");
        Assert.Equal(2, all.Count);
    }

    [Theory]
    [MemberData(nameof(Engines))]
    public async Task Query_FanOutScript_AnswersEachDocumentOnce_AndARewriteDropsOldEntries(string engine)
    {
        using var db = new InMemoryDatabase();
        db.Indexes.Put([InMemoryDatabase.Definition($$$$"""
            {"Name":"Orders/Lines","Collections":["Orders"],"SearchEngine":"{{{{engine}}}}",
             "MapScript":"map('Orders', o => o.Lines.map(l => ({ product: l.P, company: o.Company })))",
             "Fields":{"product":{"Path":"product"},"company":{"Path":"company"}}}
            """)]);
        await db.PutAsync("orders/1", """{"Company":"c1","Lines":[{"P":"a"},{"P":"b"},{"P":"a"}],"@metadata":{"@collection":"Orders"}}""");

        Assert.Single((await db.QueryAsync("from index 'Orders/Lines' where company = 'c1'")).Results);
        Assert.Single((await db.QueryAsync("from index 'Orders/Lines' where product = 'b'")).Results);

        await db.PutAsync("orders/1", """{"Company":"c1","Lines":[{"P":"a"}],"@metadata":{"@collection":"Orders"}}""");
        Assert.Empty((await db.QueryAsync("from index 'Orders/Lines' where product = 'b'")).Results);
        Assert.Single((await db.QueryAsync("from index 'Orders/Lines' where product = 'a'")).Results);
    }

    [Fact]
    public async Task Index_ScriptThatThrowsOnADocument_RecordsAnErrorAndIndexesTheRest()
    {
        using var db = new InMemoryDatabase();
        db.Indexes.Put([InMemoryDatabase.Definition("""
            {"Name":"Users/Strict","Collections":["Users"],
             "MapScript":"map('Users', u => { if (!u.Name) { throw new Error('no name'); } if (u.Spin) { for (;;) { } } return { name: u.Name }; })",
             "Fields":{"name":{"Path":"name"}}}
            """)]);
        await db.PutAsync("users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/2", """{"@metadata":{"@collection":"Users"}}""");
        await db.PutAsync("users/3", """{"Name":"Spinner","Spin":true,"@metadata":{"@collection":"Users"}}""");

        Assert.Single((await db.QueryAsync("from index 'Users/Strict'")).Results);
        var errors = db.Indexes.Get("Users/Strict")!.Errors.Recent;
        Assert.Contains(errors, e => e.DocumentId == "users/2" && e.Message.Contains("no name", StringComparison.Ordinal));
        Assert.Contains(errors, e => e.DocumentId == "users/3" && e.Message.Contains("limit", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Index_LoadInAMap_ReadsTheLoadedDocumentAsItIsWhenIndexed()
    {
        using var db = new InMemoryDatabase();
        await db.PutAsync("companies/1", """{"Name":"Acme","@metadata":{"@collection":"Companies"}}""");
        db.Indexes.Put([InMemoryDatabase.Definition("""
            {"Name":"Orders/ByCompanyName","Collections":["Orders"],
             "MapScript":"map('Orders', o => ({ company: (load(o.Company, 'Companies') || {}).Name, wrong: load(o.Company, 'Users') }))",
             "Fields":{"company":{"Path":"company"},"wrong":{"Path":"wrong"}}}
            """)]);
        await db.PutAsync("orders/1", """{"Company":"companies/1","@metadata":{"@collection":"Orders"}}""");

        Assert.Single((await db.QueryAsync("from index 'Orders/ByCompanyName' where company = 'Acme'")).Results);
        Assert.Single((await db.QueryAsync("from index 'Orders/ByCompanyName' where wrong = null")).Results);
    }

    [Fact]
    public async Task MapReduce_OverAScriptMap_GroupsTheScriptsOutputs()
    {
        using var db = new InMemoryDatabase();
        db.Indexes.Put([InMemoryDatabase.Definition("""
            {"Name":"Orders/ProductTotals","Collections":["Orders"],
             "MapScript":"map('Orders', o => o.Lines.map(l => ({ product: l.P.toLowerCase(), qty: l.Q })))",
             "Reduce":{"GroupBy":["product"],"Aggregations":{"qty":{"Op":"Sum","Path":"qty"},"count":{"Op":"Count"}}}}
            """)]);
        await db.PutAsync("orders/1", """{"Lines":[{"P":"A","Q":2},{"P":"b","Q":1}],"@metadata":{"@collection":"Orders"}}""");
        await db.PutAsync("orders/2", """{"Lines":[{"P":"a","Q":5}],"@metadata":{"@collection":"Orders"}}""");

        var (rows, _) = await db.QueryAsync("from index 'Orders/ProductTotals' where product = 'a'");
        var row = Assert.Single(rows);
        Assert.Contains("\"qty\":7", row, StringComparison.Ordinal);
        Assert.Contains("\"count\":2", row, StringComparison.Ordinal);
    }
}
