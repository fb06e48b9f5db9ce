using System.IO.Compression;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Transfer;

public sealed class TransferTests(ServerFixture fixture) : IClassFixture<ServerFixture>
{
    private HttpClient Client => fixture.Client;

    [Fact]
    public async Task Export_StreamsDocumentsInEtagOrderThenStaticIndexes_AsNdjson()
    {
        string database = await FolioApi.CreateDatabaseAsync(Client);
        await FolioApi.StoreAsync(Client, database, "orders/2", """{"Total":5,"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(Client, database, "people/1", """{"Full Name":"Åsa \"Q\" Ek","e-mail":"a@b","@metadata":{"@collection":"People"}}""");
        await FolioApi.StoreAsync(Client, database, "orders/1", """{"Total":7,"@metadata":{"@collection":"Orders"}}""");
        await PutIndexAsync(database, """{"Name":"Orders/ByTotal","Collections":["Orders"],"Fields":{"Total":{"Path":"Total","Type":"Double"}}}""");
        using (HttpResponseMessage auto = await Client.PostAsync($"/databases/{database}/queries", FolioApi.Json("""{"Query":"from People where 'e-mail' = 'a@b'"}""")))
            auto.EnsureSuccessStatusCode();

        using HttpResponseMessage response = await Client.GetAsync($"/databases/{database}/export");
        string[] lines = (await response.Content.ReadAsStringAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);

        Assert.Equal("application/x-ndjson", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal($"{database}.ndjson", response.Content.Headers.ContentDisposition?.FileNameStar ?? response.Content.Headers.ContentDisposition?.FileName?.Trim('"'));
        Assert.Equal(4, lines.Length);
        Assert.Equal(["orders/2", "people/1", "orders/1"], lines[..3].Select(l => JsonNode.Parse(l)!["@metadata"]!["@id"]!.GetValue<string>()));
        Assert.Equal("Åsa \"Q\" Ek", JsonNode.Parse(lines[1])!["Full Name"]!.GetValue<string>());
        JsonNode index = JsonNode.Parse(lines[3])!["@index"]!;
        Assert.Equal("Orders/ByTotal", index["Name"]!.GetValue<string>());
    }

    [Fact]
    public async Task Export_IsTheDatabaseAsItWas_WhenWritesContinueWhileItStreams()
    {
        string database = await FolioApi.CreateDatabaseAsync(Client);
        var body = new StringBuilder("[");
        for (var i = 0; i < 5000; i++)
            body.Append(i == 0 ? "" : ",").Append($$$"""{"Type":"PUT","Id":"items/{{{i}}}","Document":{"Text":"{{{new string('x', 300)}}}"}}""");
        using (HttpResponseMessage inserted = await Client.PostAsync($"/databases/{database}/bulk_insert", FolioApi.Json(body.Append(']').ToString())))
            Assert.Equal(HttpStatusCode.Created, inserted.StatusCode);

        using HttpResponseMessage response = await Client.GetAsync($"/databases/{database}/export", HttpCompletionOption.ResponseHeadersRead);
        using var reader = new StreamReader(await response.Content.ReadAsStreamAsync());
        string first = (await reader.ReadLineAsync())!;
        for (var i = 0; i < 20; i++)
            await FolioApi.StoreAsync(Client, database, $"later/{i}", """{"Text":"written during the export"}""");
        var count = 1;
        while (await reader.ReadLineAsync() is { } line)
        {
            if (line.Length > 0)
                count++;
        }

        Assert.Equal("items/0", JsonNode.Parse(first)!["@metadata"]!["@id"]!.GetValue<string>());
        Assert.Equal(5000, count);
    }

    [Fact]
    public async Task Import_RestoresAnExport_IntoAnotherDatabase()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 200; i++)
            await FolioApi.StoreAsync(Client, source, $"notes/{i}", $$$"""{"Text":"note {{{i}}}","Tags":["a",{{{i}}}],"名前":{"x.y":null},"@metadata":{"@collection":"Notes"}}""");
        await FolioApi.StoreAsync(Client, source, "odd\"id\u00e9", """{"Text":"an id that needs escaping"}""");
        await PutIndexAsync(source, """{"Name":"Notes/ByText","Collections":["Notes"],"Fields":{"Text":{"Path":"Text","Search":true}}}""");
        byte[] gzipped = await Client.GetByteArrayAsync($"/databases/{source}/export?compress=gzip");

        string target = await FolioApi.CreateDatabaseAsync(Client);
        using var content = new ByteArrayContent(gzipped);
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/gzip");
        using HttpResponseMessage imported = await Client.PostAsync($"/databases/{target}/import", content);
        string answer = await imported.Content.ReadAsStringAsync();

        Assert.True(imported.StatusCode == HttpStatusCode.Created, answer);
        JsonElement summary = JsonDocument.Parse(answer).RootElement;
        Assert.Equal(201, summary.GetProperty("Documents").GetInt32());
        Assert.Equal(1, summary.GetProperty("Indexes").GetInt32());
        foreach (string id in Enumerable.Range(0, 200).Select(i => $"notes/{i}").Append("odd\"id\u00e9"))
        {
            JsonNode expected = Content((await FolioApi.LoadAsync(Client, source, id))!.Value);
            JsonNode actual = Content((await FolioApi.LoadAsync(Client, target, id))!.Value);
            Assert.True(JsonNode.DeepEquals(expected, actual), $"{id}: {expected.ToJsonString()} became {actual.ToJsonString()}");
        }

        JsonElement found = await FolioApi.GetJsonAsync(Client, $"/databases/{target}/queries?query=" + Uri.EscapeDataString("from index 'Notes/ByText' where search(Text, 'note')") + "&waitForNonStaleResults=true");
        Assert.Equal(200, found.GetProperty("TotalResults").GetInt32());
    }

    [Fact]
    public async Task Import_StoresTheLinesBeforeABadOne_AndNamesIt()
    {
        string database = await FolioApi.CreateDatabaseAsync(Client);
        string body = """
            {"Text":"one","@metadata":{"@id":"notes/1","@collection":"Notes"}}

            {"Text":"two","@metadata":{"@id":"notes/2"}}
            {"Text": not json
            {"Text":"four","@metadata":{"@id":"notes/4"}}
            {"@index":{"Name":"Notes/ByText","Collections":["Notes"],"Fields":{"Text":{"Path":"Text"}}}}
            """;

        using HttpResponseMessage response = await Client.PostAsync($"/databases/{database}/import", new StringContent(body, Encoding.UTF8, "application/x-ndjson"));
        string answer = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("Line 4", answer, StringComparison.Ordinal);
        Assert.Contains("urn:folio:problem:invalid-import", answer, StringComparison.Ordinal);
        Assert.NotNull(await FolioApi.LoadAsync(Client, database, "notes/1"));
        Assert.NotNull(await FolioApi.LoadAsync(Client, database, "notes/2"));
        Assert.Null(await FolioApi.LoadAsync(Client, database, "notes/4"));
        JsonElement indexes = await FolioApi.GetJsonAsync(Client, $"/databases/{database}/indexes");
        Assert.Equal(0, indexes.GetProperty("Results").GetArrayLength());
    }

    [Fact]
    public async Task Import_RefusesAnEncodingItCannotRead_AndStoresNothing()
    {
        string database = await FolioApi.CreateDatabaseAsync(Client);
        using var content = new StringContent("""{"Text":"x","@metadata":{"@id":"notes/1"}}""", Encoding.UTF8, "application/x-ndjson");
        content.Headers.ContentEncoding.Add("br");

        using HttpResponseMessage response = await Client.PostAsync($"/databases/{database}/import", content);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal(0, (await FolioApi.StatsAsync(Client, database)).CountOfDocuments);
    }

    [Theory]
    [InlineData("""{"Text":"no id"}""", "needs a string")]
    [InlineData("""{"Text":"x","@metadata":{"@id":7}}""", "needs a string")]
    [InlineData("""[1,2]""", "one JSON object")]
    [InlineData("""{"a":1} {"b":2}""", "not JSON")]
    [InlineData("""{"@metadata":{"@id":"x"},"@index":{"Name":"X","Collections":["A"],"Fields":{"F":{"Path":"F"}}}}""", "not both")]
    [InlineData("""{"@index":{"Name":"Bad","Collections":[],"Fields":{}}}""", "index definition is invalid")]
    public async Task Import_RefusesALine_ThatIsNeitherADocumentWithAnIdNorAnIndex(string line, string reason)
    {
        string database = await FolioApi.CreateDatabaseAsync(Client);

        using HttpResponseMessage response = await Client.PostAsync($"/databases/{database}/import", new StringContent(line, Encoding.UTF8, "application/x-ndjson"));
        string answer = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("Line 1", answer, StringComparison.Ordinal);
        Assert.Contains(reason, answer, StringComparison.Ordinal);
        Assert.Equal(0, (await FolioApi.StatsAsync(Client, database)).CountOfDocuments);
    }

    /// <summary>A document without what the target database gives it anew: its change vector and modification time.</summary>
    private static JsonNode Content(JsonElement document)
    {
        JsonNode node = JsonNode.Parse(document.GetRawText())!;
        JsonObject metadata = node["@metadata"]!.AsObject();
        metadata.Remove("@change-vector");
        metadata.Remove("@last-modified");
        return node;
    }

    private async Task PutIndexAsync(string database, string definition)
    {
        using HttpResponseMessage response = await Client.PutAsync($"/databases/{database}/indexes", FolioApi.Json($$"""{"Indexes":[{{definition}}]}"""));
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
    }
}
