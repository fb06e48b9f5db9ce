using System.Net;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Documents;

/// <summary>
/// The two include routes read one path language: <c>GET …/docs?id=…&amp;include=P</c> (a streaming walk
/// over the stored bytes) and a query's <c>include P</c> (a walk over the parsed document) must include
/// the same documents. Before they shared a parser, <c>include=Tags</c> on an array of ids included
/// nothing on the GET route while the query included both.
/// </summary>
public sealed class IncludeRoutesTests : IClassFixture<ServerFixture>, IAsyncLifetime
{
    private const string Post = """
        {"Tags":["tags/1","tags/2"],
         "Lines":[{"Product":"products/1"},{"Product":"products/2"},{"Product":"products/1"}],
         "Matrix":[["cells/1","cells/2"],[["cells/3"]],[]],
         "Ref Ids":["refs/1","refs/2"],
         "a.b":"dots/1",
         "a":{"b":"plain/1"},
         "Address":{"e-mail":"mails/1"},
         "名前":"names/1",
         "Missing":null,
         "@metadata":{"@collection":"Posts"}}
        """;

    private readonly HttpClient _client;
    private string _db = "";

    public IncludeRoutesTests(ServerFixture fixture)
    {
        _client = fixture.Client;
    }

    public async Task InitializeAsync()
    {
        _db = await FolioApi.CreateDatabaseAsync(_client);
        string[] targets = ["tags/1", "tags/2", "products/1", "products/2", "cells/1", "cells/2", "cells/3", "refs/1", "refs/2", "dots/1", "plain/1", "mails/1", "names/1"];
        foreach (string id in targets)
            await FolioApi.StoreAsync(_client, _db, id, $$"""{"Name":"{{id}}"}""");
        await FolioApi.StoreAsync(_client, _db, "posts/1", Post);
    }

    public Task DisposeAsync() => Task.CompletedTask;

    [Theory]
    [InlineData("Tags", "Tags", "tags/1 tags/2")]
    [InlineData("Tags[]", "Tags[]", "tags/1 tags/2")]
    [InlineData("Lines[].Product", "Lines[].Product", "products/1 products/2")]
    [InlineData("Lines.Product", "Lines.Product", "products/1 products/2")]
    [InlineData("Matrix", "Matrix", "cells/1 cells/2 cells/3")]
    [InlineData("Matrix[]", "'Matrix[]'", "cells/1 cells/2 cells/3")]
    [InlineData("'Ref Ids'", "\"'Ref Ids'\"", "refs/1 refs/2")]
    [InlineData("'Ref Ids'", "'Ref Ids'", "refs/1 refs/2")]
    [InlineData("'Ref Ids'[]", "'Ref Ids'[]", "refs/1 refs/2")]
    [InlineData("\"Ref Ids\"[]", "'\"Ref Ids\"[]'", "refs/1 refs/2")]
    [InlineData("\"a.b\"", "'\"a.b\"'", "dots/1")]
    [InlineData("a.b", "a.b", "plain/1")]
    [InlineData("Address.'e-mail'", "\"Address.'e-mail'\"", "mails/1")]
    [InlineData("Address.e-mail", "'Address.e-mail'", "mails/1")]
    [InlineData("Address.'e-mail'", "Address.'e-mail'", "mails/1")]
    [InlineData("名前", "名前", "names/1")]
    [InlineData("Missing", "Missing", "")]
    [InlineData("Nowhere.At.All", "Nowhere.At.All", "")]
    public async Task Include_SamePath_BothRoutesIncludeTheSameDocuments(string path, string rqlPath, string expected)
    {
        string[] wanted = expected.Length == 0 ? [] : expected.Split(' ');

        JsonElement loaded = await FolioApi.GetJsonAsync(_client, $"{FolioApi.DocsUri(_db, "posts/1")}&include={Uri.EscapeDataString(path)}");
        JsonElement queried = await QueryAsync($"from Posts where id() = 'posts/1' include {rqlPath}");

        Assert.Equal(wanted, IncludedIds(loaded));
        Assert.Equal(wanted, IncludedIds(queried));
        Assert.Equal("posts/1", queried.GetProperty("Results")[0].GetProperty("@metadata").GetProperty("@id").GetString());
    }

    [Fact]
    public async Task Include_UnquotedNameWithSpace_Answers400OnTheGetRoute()
    {
        // A query's include 'Ref Ids' is a string that is no path's text, so it names the one property
        // (a case of the theory above); the parameter is a path and its name needs quotes.
        using HttpResponseMessage get = await _client.GetAsync($"{FolioApi.DocsUri(_db, "posts/1")}&include={Uri.EscapeDataString("Ref Ids")}");

        JsonElement getProblem = await ProblemAssert.IsProblemAsync(get, HttpStatusCode.BadRequest, ProblemTypes.InvalidParameter);
        Assert.Contains("The path 'Ref Ids' has a space in a bare name at position 3; write the name in quotes: 'Ref Ids'.", getProblem.GetProperty("detail").GetString(), StringComparison.Ordinal);
    }

    private async Task<JsonElement> QueryAsync(string rql)
    {
        using HttpResponseMessage response = await _client.PostAsync($"/databases/{_db}/queries", FolioApi.Json(QueryBody(rql)));
        string body = await response.Content.ReadAsStringAsync();
        Assert.True(response.StatusCode == HttpStatusCode.OK, $"{rql} answered {(int)response.StatusCode}: {body}");
        return JsonDocument.Parse(body).RootElement.Clone();
    }

    private static string QueryBody(string rql) => JsonSerializer.Serialize(new { Query = rql });

    private static string[] IncludedIds(JsonElement answer)
    {
        var ids = new List<string>();
        foreach (JsonProperty included in answer.GetProperty("Includes").EnumerateObject())
            ids.Add(included.Name);
        ids.Sort(StringComparer.Ordinal);
        return [.. ids];
    }
}
