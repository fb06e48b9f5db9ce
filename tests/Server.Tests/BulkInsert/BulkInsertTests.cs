using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.BulkInsert;

public class BulkInsertTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public BulkInsertTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    [Fact]
    public async Task Post_StoresEveryDocument_When100000DocumentsStream()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        const int count = 100_000;

        using HttpClient streaming = BulkInsertApi.StreamingClient(_fixture.Running);
        JsonElement summary = await BulkInsertApi.InsertAsync(streaming, db, new CommandStreamContent(count, i => TestCommands.Put("users/", (int)i)));

        Assert.Equal(count, summary.GetProperty("Documents").GetInt64());
        Assert.True(summary.GetProperty("Batches").GetInt64() >= 1);
        Assert.True(summary.GetProperty("Bytes").GetInt64() > count * 200L);
        DatabaseStats stats = await FolioApi.StatsAsync(_client, db);
        Assert.Equal(count, stats.CountOfDocuments);
        Assert.Equal(stats.LastDocEtag, summary.GetProperty("LastEtag").GetInt64());
        foreach (int index in new[] { 0, 1, 4095, 4096, 31_337, 65_536, 99_998, 99_999 })
            TestCommands.AssertWhole((await FolioApi.LoadAsync(_client, db, $"users/{index}"))!.Value, index);
        JsonElement collections = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/collections/stats");
        Assert.Equal(count, collections.GetProperty("Collections").GetProperty("users").GetInt64());
    }

    [Fact]
    public async Task Post_StoresAllStreams_WhenFourRunInParallel()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        const int perStream = 20_000;
        using HttpClient streaming = BulkInsertApi.StreamingClient(_fixture.Running);
        var inserts = new Task<JsonElement>[4];
        for (int s = 0; s < inserts.Length; s++)
        {
            string prefix = $"stream{s}/";
            inserts[s] = BulkInsertApi.InsertAsync(streaming, db, new CommandStreamContent(perStream, i => TestCommands.Put(prefix, (int)i)));
        }

        // An ordinary write in the middle of the streams shares the merger with them.
        await FolioApi.StoreAsync(_client, db, "single/1", """{"Alone":true}""");
        JsonElement[] summaries = await Task.WhenAll(inserts);

        foreach (JsonElement summary in summaries)
            Assert.Equal(perStream, summary.GetProperty("Documents").GetInt64());
        Assert.Equal(4 * perStream + 1, (await FolioApi.StatsAsync(_client, db)).CountOfDocuments);
        for (int s = 0; s < inserts.Length; s++)
        {
            List<JsonElement> stored = await BulkInsertApi.LoadAllAsync(_client, db, $"stream{s}/");
            Assert.Equal(perStream, stored.Count);
            var seen = new bool[perStream];
            foreach (JsonElement document in stored)
                seen[BulkInsertApi.IndexOf(document)] = true;
            Assert.DoesNotContain(false, seen);
        }

        TestCommands.AssertWhole((await FolioApi.LoadAsync(_client, db, "stream3/19999"))!.Value, 19_999);
    }

    [Fact]
    public async Task Post_AcceptsGzipBody_WhenContentEncodingIsGzip()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var content = new CommandStreamContent(10_000, i => TestCommands.Put("zipped/", (int)i, payloadBytes: 500), gzip: true);

        JsonElement summary = await BulkInsertApi.InsertAsync(_client, db, content);

        Assert.Equal(10_000, summary.GetProperty("Documents").GetInt64());
        // Bytes counts the inflated JSON, which is far larger than what crossed the wire.
        Assert.Equal(content.BytesWritten - 1, summary.GetProperty("Bytes").GetInt64());
        TestCommands.AssertWhole((await FolioApi.LoadAsync(_client, db, "zipped/9999"))!.Value, 9999, payloadBytes: 500);
        Assert.Equal(10_000, (await FolioApi.StatsAsync(_client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task Post_MakesServerIds_WhenIdEndsWithSlashOrPipe()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var content = new CommandStreamContent(3000, i => $$$"""{"Type":"PUT","Id":"{{{(i % 2 == 0 ? "orders/" : "orders|")}}}","Document":{"N":{{{i}}}}}""");

        JsonElement summary = await BulkInsertApi.InsertAsync(_client, db, content);

        Assert.Equal(3000, summary.GetProperty("Documents").GetInt64());
        List<JsonElement> stored = await BulkInsertApi.LoadAllAsync(_client, db, "orders/");
        Assert.Equal(3000, stored.Count);
        var numbers = new HashSet<int>();
        foreach (JsonElement document in stored)
        {
            string id = document.GetProperty("@metadata").GetProperty("@id").GetString()!;
            Assert.Matches("^orders/[0-9]+$", id);
            Assert.True(numbers.Add(document.GetProperty("N").GetInt32()));
        }

        JsonElement collections = await FolioApi.GetJsonAsync(_client, $"/databases/{db}/collections/stats");
        Assert.Equal(3000, collections.GetProperty("Collections").GetProperty("orders").GetInt64());
    }

    [Fact]
    public async Task Post_AnswersZeroDocuments_WhenArrayIsEmpty()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        JsonElement summary = await BulkInsertApi.InsertAsync(_client, db, FolioApi.Json(" [ ] \n"));

        Assert.Equal(0, summary.GetProperty("Documents").GetInt64());
        Assert.Equal(0, summary.GetProperty("Batches").GetInt64());
        Assert.Equal(0, (await FolioApi.StatsAsync(_client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task Post_IgnoresUnknownFields_AndAcceptsNullChangeVector()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        string body = """
            [{"Extra":{"Nested":[1,{"x":[]}]},"Type":"put","Id":"a/1","ChangeVector":null,"Document":{"V":1,"@metadata":{"@collection":"Things"}},"More":"x"},
             {"Document":{"V":2},"Id":"a/2","Type":"PUT"}]
            """;

        JsonElement summary = await BulkInsertApi.InsertAsync(_client, db, FolioApi.Json(body));

        Assert.Equal(2, summary.GetProperty("Documents").GetInt64());
        JsonElement first = (await FolioApi.LoadAsync(_client, db, "a/1"))!.Value;
        Assert.Equal("Things", first.GetProperty("@metadata").GetProperty("@collection").GetString());
        Assert.Equal(2, (await FolioApi.LoadAsync(_client, db, "a/2"))!.Value.GetProperty("V").GetInt32());
    }

    [Theory]
    [InlineData("""{"Type":"PUT","Id":"bad/1","Document":{"V":1}""", ProblemTypes.MalformedJson)]
    [InlineData("""{"Type":"PUT","Id":"bad/1","Document":[1,2]}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Type":"DELETE","Id":"bad/1"}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Type":"PUT","Document":{"V":1}}""", ProblemTypes.BadRequest)]
    [InlineData("""{"Type":"PUT","Id":"","Document":{"V":1}}""", ProblemTypes.InvalidDocumentId)]
    [InlineData("""{"Type":"PUT","Id":"bad/1","Document":{"@metadata":[]}}""", ProblemTypes.InvalidDocument)]
    [InlineData("""{"Type":"PUT","Id":"bad/1","ChangeVector":"A:1-x","Document":{}}""", ProblemTypes.BadRequest)]
    [InlineData("""17""", ProblemTypes.BadRequest)]
    [InlineData("""{"Type":"PUT","Id":"bad/1","Document":{"V":tru}}""", ProblemTypes.MalformedJson)]
    public async Task Post_FailsNamingIndexAndOffset_AndKeepsEarlierCommands_WhenCommandIsMalformed(string malformed, string type)
    {
        await using RunningServer server = await RunningServer.StartAsync("--BulkInsert:MaxBatchCommands=100");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        const int bad = 1234;
        var commands = new List<string>();
        for (int i = 0; i < bad; i++)
            commands.Add(TestCommands.Put("users/", i));
        commands.Add(malformed);
        for (int i = bad + 1; i < bad + 50; i++)
            commands.Add(TestCommands.Put("users/", i));

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(server.Client, db, new CommandStreamContent(commands.Count, i => commands[(int)i]));

        JsonElement problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.BadRequest, type);
        Assert.Equal(bad, problem.GetProperty("CommandIndex").GetInt64());
        Assert.Equal(TestCommands.OffsetOf(commands, bad), problem.GetProperty("ByteOffset").GetInt64());
        Assert.Equal(bad, problem.GetProperty("Documents").GetInt64());
        Assert.Contains($"Command {bad}", problem.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal(bad, (await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments);
        TestCommands.AssertWhole((await FolioApi.LoadAsync(server.Client, db, $"users/{bad - 1}"))!.Value, bad - 1);
        Assert.Null(await FolioApi.LoadAsync(server.Client, db, "bad/1"));
        Assert.Null(await FolioApi.LoadAsync(server.Client, db, $"users/{bad + 1}"));
    }

    [Theory]
    [InlineData("")]
    [InlineData("[")]
    [InlineData("""[{"Type":"PUT","Id":"a/1","Document":{}},""")]
    [InlineData("""[{"Type":"PUT","Id":"a/1","Document":{}}] []""")]
    [InlineData("""{"Commands":[]}""")]
    public async Task Post_Answers400_WhenBodyIsNotOneWholeArray(string body)
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(_client, db, FolioApi.Json(body));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        await FolioApi.AssertServingAsync(_client);
    }

    [Fact]
    public async Task Post_Answers413_WhenDocumentExceedsLimit_WithoutBufferingIt()
    {
        await using RunningServer server = await RunningServer.StartAsync("--MaxDocumentSizeBytes=100000");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        string huge = $$$"""{"Type":"PUT","Id":"big/1","Document":{"Blob":"{{{new string('x', 5_000_000)}}}"}}""";

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(server.Client, db, new CommandStreamContent(3, i => i == 2 ? huge : TestCommands.Put("users/", (int)i)));

        JsonElement problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
        Assert.Equal(2, problem.GetProperty("CommandIndex").GetInt64());
        Assert.Equal(2, (await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments);
    }

    [Fact]
    public async Task Post_Answers413_WhenClientKeepsSendingAfterTheOversizedDocument()
    {
        // A client still writing its stream well after the oversized command (longer than the 5 s Kestrel
        // itself drains an unread body for) gets the answer, not a reset. The occasional broken pipe seen in
        // Post_Answers413_WhenDocumentExceedsLimit_WithoutBufferingIt on a loaded machine was not reproduced
        // deterministically; this pins the behaviour the server's own drain provides.
        await using RunningServer server = await RunningServer.StartAsync("--MaxDocumentSizeBytes=100000");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        string huge = $$$"""{"Type":"PUT","Id":"big/1","Document":{"Blob":"{{{new string('x', 200_000)}}}"}}""";
        var content = new SlowTailContent(
            "[" + TestCommands.Put("users/", 0) + "," + TestCommands.Put("users/", 1) + "," + huge,
            "," + TestCommands.Put("users/", 9),
            TimeSpan.FromSeconds(6.5));

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(server.Client, db, content);

        JsonElement problem = await ProblemAssert.IsProblemAsync(response, HttpStatusCode.RequestEntityTooLarge, ProblemTypes.TooLarge);
        Assert.Equal(2, problem.GetProperty("CommandIndex").GetInt64());
        Assert.Equal(2, (await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments);
    }

    /// <summary>A chunked body: a head at once, then a tail command every 50 ms for a while, then <c>]</c>.</summary>
    private sealed class SlowTailContent(string head, string tail, TimeSpan duration) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            await stream.WriteAsync(Encoding.UTF8.GetBytes(head));
            await stream.FlushAsync();
            byte[] piece = Encoding.UTF8.GetBytes(tail);
            var elapsed = System.Diagnostics.Stopwatch.StartNew();
            while (elapsed.Elapsed < duration)
            {
                await Task.Delay(50);
                await stream.WriteAsync(piece);
                await stream.FlushAsync();
            }
            await stream.WriteAsync("]"u8.ToArray());
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }

    [Fact]
    public async Task Post_Answers415_WhenContentEncodingIsUnknown()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var content = new ByteArrayContent(Encoding.UTF8.GetBytes("[]"));
        content.Headers.ContentEncoding.Add("br");

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(_client, db, content);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
    }

    [Fact]
    public async Task Post_Answers400_WhenGzipBodyIsCorrupt()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        var content = new ByteArrayContent([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff, 0x12, 0x34]);
        content.Headers.ContentEncoding.Add("gzip");

        using HttpResponseMessage response = await BulkInsertApi.PostAsync(_client, db, content);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        await FolioApi.AssertServingAsync(_client);
    }

    [Fact]
    public async Task Post_Answers404_WhenDatabaseIsMissing()
    {
        using HttpResponseMessage response = await BulkInsertApi.PostAsync(_client, "no-such-db", FolioApi.Json("[]"));

        await ProblemAssert.IsProblemAsync(response, HttpStatusCode.NotFound, ProblemTypes.DatabaseNotFound);
    }

    [Fact]
    public async Task Post_AcceptsBodyLargerThanRequestLimit()
    {
        // 2 MB of documents against a 1.1 MB request limit: the route lifts Kestrel's limit for itself.
        await using RunningServer server = await RunningServer.StartAsync("--MaxDocumentSizeBytes=100000", "--RequestBodyMarginBytes=1000000");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);

        JsonElement summary = await BulkInsertApi.InsertAsync(server.Client, db, new CommandStreamContent(8000, i => TestCommands.Put("users/", (int)i)));

        Assert.Equal(8000, summary.GetProperty("Documents").GetInt64());
    }

    [Fact]
    public async Task Post_ShowsInStatsAndLogsProgress_WhileStreaming()
    {
        await using RunningServer server = await RunningServer.StartAsync("--BulkInsert:ProgressInterval=00:00:00.001");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        var gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var content = new GatedContent(TestCommands.Body(Commands(0, 500)), gate.Task, TestCommands.Body(Commands(500, 500))[1..]);

        Task<JsonElement> insert = BulkInsertApi.InsertAsync(server.Client, db, content);
        LogEvent progress = await server.Log.WaitForAsync(
            e => e.MessageTemplate.Text.Contains("docs/s", StringComparison.Ordinal) && CapturingSink.Scalar(e, "Documents") is long documents && documents == 500,
            "for bulk insert progress at 500 documents");
        JsonElement stats = await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/stats");
        gate.SetResult();
        JsonElement summary = await insert;

        Assert.Equal(db, CapturingSink.Scalar(progress, "Database"));
        Assert.True(CapturingSink.Scalar(progress, "MegaBytes") is double);
        Assert.True(CapturingSink.Scalar(progress, "DocumentsPerSecond") is double);
        Assert.Equal(1, stats.GetProperty("BulkInsertsInProgress").GetInt32());
        JsonElement running = stats.GetProperty("BulkInserts")[0];
        Assert.Equal(500, running.GetProperty("Documents").GetInt64());
        Assert.True(running.GetProperty("Bytes").GetInt64() > 0);
        // At least one journal record (a 4 KB block): the first 500 documents are committed. Records are LZ4
        // compressed, so their bytes say little about these small, similar documents' size.
        Assert.True(stats.GetProperty("JournalBytesWritten").GetInt64() >= 4096);
        Assert.Equal(1000, summary.GetProperty("Documents").GetInt64());
        JsonElement after = await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/stats");
        Assert.Equal(0, after.GetProperty("BulkInsertsInProgress").GetInt32());
        Assert.Equal(0, after.GetProperty("BulkInserts").GetArrayLength());
        await server.Log.WaitForAsync(e => e.MessageTemplate.Text.Contains("stored {Documents} documents", StringComparison.Ordinal), "for the completion line");
    }

    /// <summary>Commands <paramref name="start"/>… as a list, without the surrounding array.</summary>
    private static List<string> Commands(int start, int count)
    {
        var list = new List<string>(count);
        for (int i = start; i < start + count; i++)
            list.Add(TestCommands.Put("users/", i));
        return list;
    }

    /// <summary>Sends the first part (without the closing bracket), waits for the gate, then sends the rest.</summary>
    private sealed class GatedContent(byte[] body, Task gate, byte[] rest) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            await stream.WriteAsync(body.AsMemory(0, body.Length - 1));
            await stream.WriteAsync(","u8.ToArray());
            await stream.FlushAsync();
            await gate;
            await stream.WriteAsync(rest);
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
