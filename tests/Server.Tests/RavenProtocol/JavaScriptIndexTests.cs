using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Folio.Server.Tests.Wire;

namespace Folio.Server.Tests.RavenProtocol;

/// <summary>
/// JavaScript map indexes run through Jint, as the seeds' clients define them (<c>Maps</c>, <c>AdditionalSources</c>,
/// <c>Reduce</c>) and as Folio's own definitions give them (<c>MapScript</c>): statements and computed values, fan-out,
/// <c>load</c>, dynamic fields, map/reduce over a script's outputs, and a script's failures as index errors.
/// </summary>
public sealed class JavaScriptIndexTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task SeedsMap_WithStatementsHelpersAndComputedValues_IndexesWhatTheScriptReturns()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "users/1", """{"First":"John","Last":"Smith","Role":"admin","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"First":"Jane","Last":"Doe","Role":"guest","@metadata":{"@collection":"Users"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Users/Full","Maps":["map('Users', u => { if (u.Role !== 'admin') { return null; } const full = shout(u.First + ' ' + u.Last); return { fullName: full, count: 1, none: null }; })"],
             "AdditionalSources":{"Helpers":"function shout(s) { return s.toUpperCase(); }"}}
            """);

        JsonElement result = await QueryAsync(db, "from index 'Users/Full' where fullName = 'JOHN SMITH' and count = 1");
        Assert.Equal("users/1", IdOf(Assert.Single(result.GetProperty("Results").EnumerateArray())));
        // The guest's map returned null: no entry at all.
        Assert.Single((await QueryAsync(db, "from index 'Users/Full'")).GetProperty("Results").EnumerateArray());
    }

    [Fact]
    public async Task SeedsMap_ReturningAnArray_FansOut_AndAChangeReplacesTheEntries()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "posts/1", """{"Tags":["a","b","c"],"@metadata":{"@collection":"Posts"}}""");
        await FolioApi.StoreAsync(Client, db, "posts/2", """{"Tags":["b"],"@metadata":{"@collection":"Posts"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Posts/Tags","Maps":["map('Posts', p => { const result = []; p.Tags.forEach(t => { result.push({ tag: t }); }); return result; })"]}
            """);

        Assert.Equal(2, (await QueryAsync(db, "from index 'Posts/Tags' where tag = 'b'")).GetProperty("Results").GetArrayLength());
        Assert.Single((await QueryAsync(db, "from index 'Posts/Tags' where id() = 'posts/1'")).GetProperty("Results").EnumerateArray());
        Assert.Equal(3, (await QueryAsync(db, "from index 'Posts/Tags' where id() = 'posts/1'", skipDuplicates: true)).GetProperty("Results").GetArrayLength());
        Assert.Equal("posts/1", IdOf(Assert.Single((await QueryAsync(db, "from index 'Posts/Tags' where tag = 'c'")).GetProperty("Results").EnumerateArray())));

        await FolioApi.StoreAsync(Client, db, "posts/1", """{"Tags":["a"],"@metadata":{"@collection":"Posts"}}""");
        Assert.Empty((await QueryAsync(db, "from index 'Posts/Tags' where tag = 'c'")).GetProperty("Results").EnumerateArray());
        Assert.Equal("posts/1", IdOf(Assert.Single((await QueryAsync(db, "from index 'Posts/Tags' where tag = 'a'")).GetProperty("Results").EnumerateArray())));
    }

    [Fact]
    public async Task SeedsMap_LoadingAnotherDocument_IndexesItsValue()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "products/1", """{"Name":"Shampoo","@metadata":{"@collection":"Products"}}""");
        await FolioApi.StoreAsync(Client, db, "users/1", """{"Name":"Ann","Product":"products/1","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"Name":"Bob","Product":"products/404","@metadata":{"@collection":"Users"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Users/Product","Maps":["map('Users', u => { const p = load(u.Product, 'Products'); return { product: p ? p.Name : 'none', id: id(u) }; })"]}
            """);

        Assert.Equal("users/1", IdOf(Assert.Single((await QueryAsync(db, "from index 'Users/Product' where product = 'Shampoo'")).GetProperty("Results").EnumerateArray())));
        Assert.Equal("users/2", IdOf(Assert.Single((await QueryAsync(db, "from index 'Users/Product' where product = 'none'")).GetProperty("Results").EnumerateArray())));
    }

    [Fact]
    public async Task SeedsMap_DynamicFields_IndexUnderTheirLiteralNames()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "items/1", """{"Color":"red","Size":"XL","@metadata":{"@collection":"Items"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Items/Dynamic","Maps":["map('Items', i => ({ _: [createField('color', i.Color, { indexing: 'Exact' })], size: { $name: 'sized', $value: i.Size, $options: { indexing: 'Search' } } }))"]}
            """);

        Assert.Single((await QueryAsync(db, "from index 'Items/Dynamic' where color = 'red'")).GetProperty("Results").EnumerateArray());
        Assert.Single((await QueryAsync(db, "from index 'Items/Dynamic' where search(sized, 'xl')")).GetProperty("Results").EnumerateArray());
    }

    [Fact]
    [Exercises("GET /databases/{db}/indexes/terms")]
    public async Task Terms_OfADynamicField_AreTheIndexedTermsInOrder_AndAnUnknownIndexIs404()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "users/1", """{"Name":"Marcin","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/3", """{"Name":"Zed","@metadata":{"@collection":"Users"}}""");
        await PutSeedsIndexAsync(db, """{"Name":"Users/Named","Maps":["map('Users', u => ({ _: [createField('name', u.Name, { indexing: 'Default' })] }))"]}""");
        await QueryAsync(db, "from index 'Users/Named'");

        JsonElement terms = await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes/terms?name=Users/Named&field=name&fromValue=&pageSize=");
        Assert.Equal(["ann", "marcin", "zed"], terms.GetProperty("Terms").EnumerateArray().Select(t => t.GetString()));
        Assert.Equal("Users/Named", terms.GetProperty("IndexName").GetString());
        JsonElement page = await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes/terms?name=Users/Named&field=name&fromValue=ann&pageSize=1");
        Assert.Equal(["marcin"], page.GetProperty("Terms").EnumerateArray().Select(t => t.GetString()));
        Assert.Empty((await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes/terms?name=Users/Named&field=nope")).GetProperty("Terms").EnumerateArray());

        using HttpResponseMessage missing = await Client.GetAsync($"/databases/{db}/indexes/terms?name=Nope&field=name");
        await ProblemAssert.IsProblemAsync(missing, HttpStatusCode.NotFound, "urn:folio:problem:index-not-found");
    }

    [Fact]
    public async Task SeedsMapReduce_WithAFanOutScriptMap_ReducesTheScriptsOutputs()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "fanouts/1", """{"Foo":"x","Numbers":[1,2,3],"@metadata":{"@collection":"Fanouts"}}""");
        await FolioApi.StoreAsync(Client, db, "fanouts/2", """{"Foo":"y","Numbers":[10],"@metadata":{"@collection":"Fanouts"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Fanouts/Sum","Maps":["map('Fanouts', f => { const result = []; for (let i = 0; i < f.Numbers.length; i++) { result.push({ foo: f.Foo, sum: f.Numbers[i] }); } return result; })"],
             "Reduce":"groupBy(x => x.foo).aggregate(g => ({ foo: g.key, sum: g.values.reduce((a, b) => a + b.sum, 0) }))"}
            """);

        JsonElement row = Assert.Single((await QueryAsync(db, "from index 'Fanouts/Sum' where foo = 'x'")).GetProperty("Results").EnumerateArray());
        Assert.Equal(6, row.GetProperty("sum").GetDouble());
        Assert.Equal(JsonValueKind.Object, row.GetProperty("@metadata").ValueKind);
    }

    [Fact]
    public async Task ScriptFailure_OnOneDocument_IsAnIndexError_AndTheOthersAreIndexed()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/2", """{"Name":"Bob","Loop":true,"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(Client, db, "users/3", """{"Name":"Cid","Throw":true,"@metadata":{"@collection":"Users"}}""");
        await PutSeedsIndexAsync(db, """
            {"Name":"Users/Fragile","Maps":["map('Users', u => { if (u.Throw) { throw new Error('bad user'); } while (u.Loop) { } return { name: u.Name.toLowerCase() }; })"]}
            """);

        Assert.Equal("users/1", IdOf(Assert.Single((await QueryAsync(db, "from index 'Users/Fragile'")).GetProperty("Results").EnumerateArray())));
        JsonElement errors = await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes/errors?name=Users/Fragile");
        var documents = errors.GetProperty("Results")[0].GetProperty("Errors").EnumerateArray().Select(e => (e.GetProperty("Document").GetString(), e.GetProperty("Error").GetString())).ToList();
        Assert.Contains(documents, e => e.Item1 == "users/3" && e.Item2!.Contains("bad user", StringComparison.Ordinal));
        Assert.Contains(documents, e => e.Item1 == "users/2" && e.Item2!.Contains("limit", StringComparison.Ordinal));
    }

    [Fact]
    public async Task SeedsMap_ThatIsNotJavaScript_IsRefusedWithProblemJson()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        using HttpResponseMessage response = await Client.PutAsync($"/databases/{db}/admin/indexes", FolioApi.Json(
            """{"Indexes":[{"Name":"Broken","Maps":["map('Users', u => { return { name: u.name + ; })"]}]}"""));
        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-index-definition");
        JsonElement indexes = await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes");
        Assert.Empty(indexes.GetProperty("Results").EnumerateArray());
    }

    [Fact]
    public async Task FolioDefinition_WithMapScript_IsQueryable_AndReadsBackItsScript()
    {
        string db = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, db, "orders/1", """{"Lines":[{"P":"a","Q":2},{"P":"b","Q":5}],"@metadata":{"@collection":"Orders"}}""");
        const string script = "map('Orders', o => o.Lines.filter(l => l.Q > 3).map(l => ({ product: l.P, big: true })))";
        using (HttpResponseMessage put = await Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(
            $$$$"""{"Indexes":[{"Name":"Orders/Big","Collections":["Orders"],"MapScript":{{{{JsonSerializer.Serialize(script)}}}},"Fields":{"product":{"Path":"product"},"big":{"Path":"big"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        Assert.Single((await QueryAsync(db, "from index 'Orders/Big' where product = 'b' and big = true")).GetProperty("Results").EnumerateArray());
        Assert.Empty((await QueryAsync(db, "from index 'Orders/Big' where product = 'a'")).GetProperty("Results").EnumerateArray());
        JsonElement definition = (await FolioApi.GetJsonAsync(Client, $"/databases/{db}/indexes?name=Orders/Big")).GetProperty("Results")[0];
        Assert.Equal(script, definition.GetProperty("MapScript").GetString());

        using HttpResponseMessage wrongCollection = await Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(
            """{"Indexes":[{"Name":"Orders/Wrong","Collections":["Users"],"MapScript":"map('Orders', o => ({ a: 1 }))","Fields":{"a":{"Path":"a"}}}]}"""));
        await ProblemAssert.IsProblemAsync(wrongCollection, HttpStatusCode.BadRequest, "urn:folio:problem:invalid-index-definition");
    }

    private async Task PutSeedsIndexAsync(string db, string definition)
    {
        using HttpResponseMessage response = await Client.PutAsync($"/databases/{db}/admin/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
        Assert.True(response.StatusCode is HttpStatusCode.OK or HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
    }

    // As the seeds' clients send it (their version header asks for their shapes: a map/reduce row's @metadata).
    private async Task<JsonElement> QueryAsync(string db, string rql, bool skipDuplicates = false)
    {
        using var request = new HttpRequestMessage(HttpMethod.Post, $"/databases/{db}/queries")
        {
            Content = FolioApi.Json($$"""{"Query":{{JsonSerializer.Serialize(rql)}},"WaitForNonStaleResults":true,"SkipDuplicateChecking":{{(skipDuplicates ? "true" : "false")}}}"""),
        };
        request.Headers.Add("Raven-Client-Version", "5.4.0");
        using HttpResponseMessage response = await Client.SendAsync(request);
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, text);
        return JsonDocument.Parse(text).RootElement;
    }

    private static string? IdOf(JsonElement result) => result.GetProperty("@metadata").GetProperty("@id").GetString();
}
