using System.IO.Compression;
using System.Net.Http.Headers;
using System.Text;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Wire;

/// <summary>bulk_docs and bulk_insert answer as the wire contract says, for good and bad input.</summary>
public sealed class BulkConformanceTests(WireFixture fixture) : WireTests(fixture)
{
    private const string BulkDocs = "/databases/{db}/bulk_docs";
    private const string BulkInsert = "/databases/{db}/bulk_insert";

    [Fact]
    [Exercises("POST /databases/{db}/bulk_docs")]
    public async Task BulkDocs_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/bulk_docs";
        var (_, stale) = await FolioApi.StoreAsync(Server.Client, db, "users/9", """{"V":1}""");
        await FolioApi.StoreAsync(Server.Client, db, "users/9", """{"V":2}""");
        using (HttpResponseMessage index = await Server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{}}}]}""")))
            Assert.Equal(201, (int)index.StatusCode);

        WireAnswer batch = await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """
            {"Commands":[
              {"Type":"PUT","Id":"users/1","Document":{"Name":"Ann"}},
              {"Type":"put","Id":"orders/","Document":{"Total":5,"@metadata":{"@collection":"Orders"}},"ChangeVector":null},
              {"Type":"DELETE","Id":"users/9"},
              {"Type":"DELETE","Id":"users/404","Extra":true}
            ],"Ignored":{}}
            """);
        Assert.Equal(4, batch.Body.GetProperty("Results").GetArrayLength());
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, $"{uri}?waitForIndexesTimeout=00:00:15", """{"Commands":[{"Type":"PUT","Id":"users/2","Document":{"Name":"Bo"}}]}""")).Status);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[]}""")).Status);

        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, $$"""{"Commands":[{"Type":"DELETE","Id":"users/1","ChangeVector":"{{stale}}"}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[{"Type":"PATCH","Id":"users/1"}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[{"Type":"PUT","Id":"   ","Document":{}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[{"Type":"PUT","Id":"a/1","Document":{"@metadata":[]}}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":{}}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, $"{uri}?waitForIndexesTimeout=soon", """{"Commands":[{"Type":"PUT","Id":"users/refused","Document":{"Name":"No"}}]}""")).Status);
        Assert.Null(await FolioApi.LoadAsync(Server.Client, db, "users/refused"));
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, $$"""{"Commands":[{"Type":"PUT","Id":"a/1","Document":{{LargeObject(WireFixture.MaxDocumentBytes + 1024)}}}]}""")).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, "/databases/no-such-db/bulk_docs", """{"Commands":[]}""")).Status);

        WireAnswer cluster = await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"TransactionMode":"ClusterWide","Commands":[{"Type":"PUT","Id":"cluster/1","Document":{"A":1}},{"Type":"CompareExchangePUT","Id":"k","Index":0,"Document":{"Object":1}}]}""");
        Assert.Equal(201, cluster.Status);
        Assert.True(cluster.Body.GetProperty("TransactionIndex").GetInt64() > 0);
        Assert.Equal(409, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"TransactionMode":"ClusterWide","Commands":[{"Type":"CompareExchangeDELETE","Id":"k","Index":99}]}""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkDocs, uri, """{"Commands":[{"Type":"CompareExchangeDELETE","Id":"k","Index":1}]}""")).Status);

        AssertExercised();
    }

    [Fact]
    [Exercises("POST /databases/{db}/bulk_insert")]
    public async Task BulkInsert_AnswersAsDocumented_ForGoodAndBadInput()
    {
        string db = await FolioApi.CreateDatabaseAsync(Server.Client);
        string uri = $"/databases/{db}/bulk_insert";
        const string Good = """[{"Type":"PUT","Id":"users/1","Document":{"Name":"Ann"}},{"Type":"put","Id":"users/","Document":{},"ChangeVector":null,"Extra":[1]}]""";

        WireAnswer stored = await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, Good);
        Assert.Equal(2, stored.Body.GetProperty("Documents").GetInt64());
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, Gzip(Good, corrupt: false))).Status);
        Assert.Equal(201, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, "[]")).Status);

        WireAnswer stopped = await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, """[{"Type":"PUT","Id":"users/3","Document":{}},{"Type":"DELETE","Id":"users/1"}]""");
        Assert.Equal(400, stopped.Status);
        Assert.Equal(1, stopped.Body.GetProperty("CommandIndex").GetInt64());
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, """[{"Type":"PUT","Id":"users/4","Document":{},"ChangeVector":"A:1-x"}]""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, """[{"Type":"PUT","Id":"users/4","Document":""")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, "")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, Gzip(Good, corrupt: true))).Status);
        Assert.Equal(413, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, $$"""[{"Type":"PUT","Id":"big/1","Document":{{LargeObject(WireFixture.MaxDocumentBytes + 1024)}}}]""")).Status);
        Assert.Equal(415, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, uri, Good, ("Content-Encoding", "br"))).Status);
        Assert.Equal(404, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, "/databases/no-such-db/bulk_insert", "[]")).Status);
        Assert.Equal(400, (await Wire.SendAsync(HttpMethod.Post, BulkInsert, "/databases/a..b/bulk_insert", "[]")).Status);

        AssertExercised();
    }

    /// <summary>The body gzip-compressed; corrupt flips bytes in the middle of the deflate stream, so inflating fails.</summary>
    private static ByteArrayContent Gzip(string json, bool corrupt)
    {
        using var buffer = new MemoryStream();
        using (var gzip = new GZipStream(buffer, CompressionLevel.Optimal, leaveOpen: true))
            gzip.Write(Encoding.UTF8.GetBytes(json));
        byte[] bytes = buffer.ToArray();
        if (corrupt)
        {
            for (int i = 12; i < bytes.Length - 8; i++)
                bytes[i] ^= 0x5A;
        }

        var content = new ByteArrayContent(bytes);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        content.Headers.ContentEncoding.Add("gzip");
        return content;
    }
}
