using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Changes;

public class ChangesWebSocketTests : IClassFixture<ServerFixture>
{
    private readonly ServerFixture _fixture;
    private readonly HttpClient _client;

    public ChangesWebSocketTests(ServerFixture fixture)
    {
        _fixture = fixture;
        _client = fixture.Client;
    }

    [Fact]
    public async Task Socket_SendsOnlyWatchedChanges_AfterConfirmingEachCommand()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        await FolioApi.StoreAsync(_client, db, "orders/0", """{"@metadata":{"@collection":"Orders"}}""");
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        JsonElement confirm = await CommandAsync(socket, """{"Command":"WatchCollection","Collection":"orders","CommandId":7}""");
        Assert.Equal(7, confirm.GetProperty("CommandId").GetInt64());
        await CommandAsync(socket, """{"Command":"WatchDocument","Id":"Users/2"}""");
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        await FolioApi.StoreAsync(_client, db, "orders/1", """{"@metadata":{"@collection":"Orders"}}""");
        await FolioApi.StoreAsync(_client, db, "users/2", "{}");

        JsonElement first = await ReceiveAsync(socket);
        Assert.Equal("DocumentChange", first.GetProperty("Type").GetString());
        Assert.Equal("orders/1", first.GetProperty("Id").GetString());
        Assert.Equal("Put", first.GetProperty("ChangeType").GetString());
        Assert.Equal("users/2", (await ReceiveAsync(socket)).GetProperty("Id").GetString());

        await CommandAsync(socket, """{"Command":"UnwatchCollection","Collection":"Orders"}""");
        await FolioApi.StoreAsync(_client, db, "orders/2", """{"@metadata":{"@collection":"Orders"}}""");
        using (await _client.DeleteAsync(FolioApi.DocsUri(db, "users/2")))
        {
        }

        JsonElement deleted = await ReceiveAsync(socket);
        Assert.Equal("users/2", deleted.GetProperty("Id").GetString());
        Assert.Equal("Delete", deleted.GetProperty("ChangeType").GetString());
    }

    [Fact]
    public async Task Socket_AnswersAnError_AndKeepsServing_ForABadCommand()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        foreach (string bad in new[] { "not json", "[]", """{"Command":"WatchEverything"}""", """{"Command":"WatchPrefix"}""", """{"Command":"WatchDocument","Id":""}""", """{"Command":"WatchIndexes","CommandId":"x"}""" })
        {
            await SendAsync(socket, bad);
            JsonElement error = await ReceiveAsync(socket);
            Assert.Equal("Error", error.GetProperty("Type").GetString());
            Assert.False(string.IsNullOrEmpty(error.GetProperty("Detail").GetString()), bad);
        }

        await CommandAsync(socket, """{"Command":"WatchPrefix","Prefix":"users/"}""");
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        Assert.Equal("users/1", (await ReceiveAsync(socket)).GetProperty("Id").GetString());
    }

    [Fact]
    public async Task Socket_EndsThatConnectionOnly_ForATextMessageOfInvalidUtf8()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        // A text message must be UTF-8 (RFC 6455): .NET's WebSocket sends a 1007 close and aborts the connection, so
        // the client sees that close or, when the abort's reset overtakes it, the connection reset. Either way the
        // server goes on serving other sockets.
        byte[] command = [.. "{\"Command\":\"WatchDocument\",\"Id\":\""u8.ToArray(), 0xFF, .. "\"}"u8.ToArray()];
        await socket.SendAsync(command, WebSocketMessageType.Text, endOfMessage: true, CancellationToken.None).WaitAsync(TestTimeouts.Default);
        try
        {
            WebSocketReceiveResult result = await socket.ReceiveAsync(new byte[1024], CancellationToken.None).WaitAsync(TestTimeouts.Default);
            Assert.Equal(WebSocketMessageType.Close, result.MessageType);
            Assert.Equal(WebSocketCloseStatus.InvalidPayloadData, result.CloseStatus);
        }
        catch (WebSocketException)
        {
            Assert.NotEqual(WebSocketState.Open, socket.State);
        }

        using ClientWebSocket next = await ConnectAsync(_fixture.Running, db);
        await CommandAsync(next, """{"Command":"WatchPrefix","Prefix":"users/"}""");
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        Assert.Equal("users/1", (await ReceiveAsync(next)).GetProperty("Id").GetString());
    }

    [Fact]
    public async Task Socket_AnswersAnError_AndKeepsServing_ForABinaryCommandOfInvalidUtf8()
    {
        const WebSocketMessageType type = WebSocketMessageType.Binary;
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        // Regression: a string of invalid UTF-8 in a command threw past the command's error handling and ended the socket.
        foreach (byte[] invalid in new[] { new byte[] { 0xFF }, [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82] })
        {
            byte[] command = [.. "{\"Command\":\"WatchDocument\",\"Id\":\""u8.ToArray(), .. invalid, .. "\"}"u8.ToArray()];
            await socket.SendAsync(command, type, endOfMessage: true, CancellationToken.None).WaitAsync(TestTimeouts.Default);
            JsonElement error = await ReceiveAsync(socket);
            Assert.Equal("Error", error.GetProperty("Type").GetString());
            Assert.Contains("UTF-8", error.GetProperty("Detail").GetString(), StringComparison.Ordinal);
        }

        await CommandAsync(socket, """{"Command":"WatchPrefix","Prefix":"users/"}""");
        await FolioApi.StoreAsync(_client, db, "users/1", "{}");
        Assert.Equal("users/1", (await ReceiveAsync(socket)).GetProperty("Id").GetString());
    }

    [Fact]
    public async Task Socket_ReportsIndexCreatedIndexedAndDeleted_WhenWatchingIndexes()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);
        await CommandAsync(socket, """{"Command":"WatchIndexes"}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"Name":"Ann","@metadata":{"@collection":"Users"}}""");

        long written = (await FolioApi.GetJsonAsync(_client, $"/databases/{db}/changes")).GetProperty("LastEtag").GetInt64();
        using (HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);

        // An index may have indexed everything by the time it is first seen: Created then carries the etag.
        var seen = new List<string>();
        long indexed = -1;
        while (indexed < written)
        {
            JsonElement change = await ReceiveAsync(socket);
            Assert.Equal("IndexChange", change.GetProperty("Type").GetString());
            Assert.Equal("Users/ByName", change.GetProperty("Name").GetString());
            seen.Add(change.GetProperty("ChangeType").GetString()!);
            indexed = change.GetProperty("Etag").GetInt64();
        }

        Assert.Equal("Created", seen[0]);
        Assert.All(seen.Skip(1), kind => Assert.Equal("BatchCompleted", kind));

        using (HttpResponseMessage delete = await _client.DeleteAsync($"/databases/{db}/indexes?name=Users/ByName"))
            Assert.Equal(HttpStatusCode.NoContent, delete.StatusCode);
        JsonElement deleted = await ReceiveAsync(socket);
        Assert.Equal("Deleted", deleted.GetProperty("ChangeType").GetString());
    }

    [Fact]
    public async Task Socket_ReportsPriorityAndPauses_WhenAnIndexsSettingsChange()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using (HttpResponseMessage put = await _client.PutAsync($"/databases/{db}/indexes", FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);
        await CommandAsync(socket, """{"Command":"WatchIndexes"}""");

        using (HttpResponseMessage priority = await _client.PostAsync($"/databases/{db}/indexes/set-priority", FolioApi.Json("""{"IndexNames":["Users/ByName"],"Priority":"Low"}""")))
            Assert.True(priority.IsSuccessStatusCode);
        Assert.Equal("PriorityChanged", (await ReceiveAsync(socket)).GetProperty("ChangeType").GetString());

        using (HttpResponseMessage disable = await _client.PostAsync($"/databases/{db}/admin/indexes/disable?name=Users/ByName", null))
            Assert.True(disable.IsSuccessStatusCode);
        Assert.Equal("Paused", (await ReceiveAsync(socket)).GetProperty("ChangeType").GetString());
        using (HttpResponseMessage enable = await _client.PostAsync($"/databases/{db}/admin/indexes/enable?name=Users/ByName", null))
            Assert.True(enable.IsSuccessStatusCode);
        Assert.Equal("Resumed", (await ReceiveAsync(socket)).GetProperty("ChangeType").GetString());
    }

    [Fact]
    public async Task Socket_SaysItFellBehind_AndWhereToResume_WhenAWriteOutrunsItsLag()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Changes:MaxWebSocketLag=100");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        await FolioApi.StoreAsync(server.Client, db, "first", "{}");
        using ClientWebSocket socket = await ConnectAsync(server, db);
        await CommandAsync(socket, """{"Command":"WatchAllDocuments"}""");
        long before = (await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/changes")).GetProperty("LastEtag").GetInt64();

        string commands = string.Join(',', Enumerable.Range(0, 500).Select(i => $"{{\"Type\":\"PUT\",\"Id\":\"items/{i}\",\"Document\":{{}}}}"));
        using (HttpResponseMessage written = await server.Client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json($"{{\"Commands\":[{commands}]}}")))
            Assert.Equal(HttpStatusCode.Created, written.StatusCode);

        JsonElement behind = await ReceiveOrExplainAsync(socket, server);
        Assert.Equal("FellBehind", behind.GetProperty("Type").GetString());
        Assert.Equal(before, behind.GetProperty("ResumeFrom").GetInt64());
        Assert.Equal(before + 500, behind.GetProperty("LastEtag").GetInt64());
        JsonElement gap = await FolioApi.GetJsonAsync(server.Client, $"/databases/{db}/changes?since={before}");
        Assert.Equal(500, gap.GetProperty("Results").GetArrayLength());

        await FolioApi.StoreAsync(server.Client, db, "after", "{}");
        Assert.Equal("after", (await ReceiveAsync(socket)).GetProperty("Id").GetString());
    }

    [Fact]
    public async Task Socket_ClosesNormally_WhenTheDatabaseIsDeleted()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);
        await CommandAsync(socket, """{"Command":"WatchAllDocuments"}""");

        using (HttpResponseMessage deleted = await _client.DeleteAsync($"/admin/databases?name={db}").WaitAsync(TestTimeouts.Default))
            Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);

        var buffer = new byte[1024];
        WebSocketReceiveResult result = await socket.ReceiveAsync(buffer, CancellationToken.None).WaitAsync(TestTimeouts.Default);
        Assert.Equal(WebSocketMessageType.Close, result.MessageType);
        Assert.Equal(WebSocketCloseStatus.NormalClosure, result.CloseStatus);
    }

    [Fact]
    public async Task Socket_SpeaksTheSeedsClientsForm_DocumentAndOperationChanges()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        JsonElement confirm = await CommandAsync(socket, """{"CommandId":1,"Command":"watch-doc","Param":"users/1"}""");
        Assert.Equal(1, confirm.GetProperty("CommandId").GetInt64());
        await CommandAsync(socket, """{"CommandId":2,"Command":"watch-operations","Param":null}""");
        // Folio keeps no counters: the command is confirmed and reports nothing.
        await CommandAsync(socket, """{"CommandId":3,"Command":"watch-counters","Param":null}""");
        await FolioApi.StoreAsync(_client, db, "users/2", """{"@metadata":{"@collection":"Users"}}""");
        await FolioApi.StoreAsync(_client, db, "users/1", """{"@metadata":{"@collection":"Users"}}""");

        JsonElement change = await ReceiveAsync(socket);
        Assert.Equal("DocumentChange", change.GetProperty("Type").GetString());
        JsonElement value = change.GetProperty("Value");
        Assert.Equal("users/1", value.GetProperty("Id").GetString());
        Assert.Equal("Users", value.GetProperty("CollectionName").GetString());
        Assert.Equal("Put", value.GetProperty("Type").GetString());

        using (HttpResponseMessage started = await _client.SendAsync(new HttpRequestMessage(HttpMethod.Delete, $"/databases/{db}/queries") { Content = FolioApi.Json("""{"Query":"from Users"}""") }))
            Assert.Equal(HttpStatusCode.Accepted, started.StatusCode);
        var statuses = new List<string>();
        while (!statuses.Contains("Completed"))
        {
            JsonElement operation = await ReceiveAsync(socket);
            if (operation.GetProperty("Type").GetString() == "DocumentChange")
                continue;
            Assert.Equal("OperationStatusChange", operation.GetProperty("Type").GetString());
            Assert.True(operation.GetProperty("Value").GetProperty("OperationId").GetInt64() > 0);
            statuses.Add(operation.GetProperty("Value").GetProperty("State").GetProperty("Status").GetString()!);
        }

        Assert.Equal(["InProgress", "Completed"], statuses);
    }

    [Fact]
    public async Task Socket_AnswersTheSeedsClientsBadCommand_WithAnErrorTheyRead()
    {
        string db = await FolioApi.CreateDatabaseAsync(_client);
        using ClientWebSocket socket = await ConnectAsync(_fixture.Running, db);

        await SendAsync(socket, """{"CommandId":1,"Command":"watch-doc"}""");

        JsonElement error = await ReceiveAsync(socket);
        Assert.Equal("Error", error.GetProperty("Type").GetString());
        Assert.Contains("Param", error.GetProperty("Exception").GetString());
    }

    private static async Task<ClientWebSocket> ConnectAsync(RunningServer server, string db)
    {
        var socket = new ClientWebSocket();
        var uri = new UriBuilder(server.Server.Address) { Scheme = "ws", Path = $"/databases/{db}/changes" }.Uri;
        await socket.ConnectAsync(uri, CancellationToken.None).WaitAsync(TestTimeouts.Default);
        return socket;
    }

    private static async Task<JsonElement> CommandAsync(ClientWebSocket socket, string command)
    {
        await SendAsync(socket, command);
        JsonElement answer = await ReceiveAsync(socket);
        Assert.True(answer.GetProperty("Type").GetString() == "Confirm", answer.GetRawText());
        return answer;
    }

    private static Task SendAsync(ClientWebSocket socket, string text) =>
        socket.SendAsync(Encoding.UTF8.GetBytes(text), WebSocketMessageType.Text, endOfMessage: true, CancellationToken.None).WaitAsync(TestTimeouts.Default);

    /// <summary>
    /// Receives a message; should none come, fails with the server's log, which says whether the socket saw the
    /// writes late (a missed wake-up) or not at all.
    /// </summary>
    private static async Task<JsonElement> ReceiveOrExplainAsync(ClientWebSocket socket, RunningServer server)
    {
        try
        {
            return await ReceiveAsync(socket);
        }
        catch (TimeoutException)
        {
            var log = new StringBuilder("No message within the timeout. The server's log:");
            foreach (Serilog.Events.LogEvent logged in server.Log.Events)
                log.Append('\n').Append(logged.Timestamp.ToString("HH:mm:ss.fff", System.Globalization.CultureInfo.InvariantCulture)).Append(' ').Append(logged.RenderMessage(System.Globalization.CultureInfo.InvariantCulture));
            throw new Xunit.Sdk.XunitException(log.ToString());
        }
    }

    private static async Task<JsonElement> ReceiveAsync(ClientWebSocket socket)
    {
        var buffer = new byte[64 * 1024];
        var length = 0;
        WebSocketReceiveResult result;
        do
        {
            result = await socket.ReceiveAsync(new ArraySegment<byte>(buffer, length, buffer.Length - length), CancellationToken.None).WaitAsync(TestTimeouts.Default);
            length += result.Count;
        }
        while (!result.EndOfMessage);
        Assert.Equal(WebSocketMessageType.Text, result.MessageType);
        return JsonDocument.Parse(buffer.AsMemory(0, length)).RootElement.Clone();
    }
}
