using System.IO.Compression;
using System.Net;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Transfer;

public sealed class ExportTests(ServerFixture fixture) : IClassFixture<ServerFixture>
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
    public async Task Export_RoundTripsThroughBulkInsertAndIndexes_IntoAnotherDatabase()
    {
        string source = await FolioApi.CreateDatabaseAsync(Client);
        for (var i = 0; i < 200; i++)
            await FolioApi.StoreAsync(Client, source, $"notes/{i}", $$$"""{"Text":"note {{{i}}}","Tags":["a",{{{i}}}],"名前":{"x.y":null},"@metadata":{"@collection":"Notes"}}""");
        await PutIndexAsync(source, """{"Name":"Notes/ByText","Collections":["Notes"],"Fields":{"Text":{"Path":"Text","Search":true}}}""");

        byte[] gzipped = await Client.GetByteArrayAsync($"/databases/{source}/export?compress=gzip");
        using var inflate = new StreamReader(new GZipStream(new MemoryStream(gzipped), CompressionMode.Decompress));
        string[] lines = (await inflate.ReadToEndAsync()).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        string target = await FolioApi.CreateDatabaseAsync(Client);
        var commands = new List<string>();
        foreach (string line in lines)
        {
            JsonNode node = JsonNode.Parse(line)!;
            if (node["@index"] is { } definition)
                await PutIndexAsync(target, definition.ToJsonString());
            else
                commands.Add($$"""{"Type":"PUT","Id":{{JsonSerializer.Serialize(node["@metadata"]!["@id"]!.GetValue<string>())}},"Document":{{line}}}""");
        }

        using (HttpResponseMessage inserted = await Client.PostAsync($"/databases/{target}/bulk_insert", FolioApi.Json("[" + string.Join(",", commands) + "]")))
            Assert.Equal(HttpStatusCode.Created, inserted.StatusCode);

        for (var i = 0; i < 200; i++)
        {
            JsonNode expected = Content((await FolioApi.LoadAsync(Client, source, $"notes/{i}"))!.Value);
            JsonNode actual = Content((await FolioApi.LoadAsync(Client, target, $"notes/{i}"))!.Value);
            Assert.True(JsonNode.DeepEquals(expected, actual), $"notes/{i}: {expected.ToJsonString()} became {actual.ToJsonString()}");
        }

        JsonElement found = await FolioApi.GetJsonAsync(Client, $"/databases/{target}/indexes?name=Notes/ByText");
        Assert.Equal("Notes/ByText", found.GetProperty("Results")[0].GetProperty("Name").GetString());
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
