using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Serilog.Events;

namespace Folio.Server.Tests.BulkInsert;

public class BulkInsertDisconnectTests
{
    [Fact]
    public async Task Post_KeepsEveryWholeCommandSent_WhenClientDisconnectsAfterNetworkGoesIdle()
    {
        await using RunningServer server = await RunningServer.StartAsync("--BulkInsert:ProgressInterval=00:00:00.001");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        const int whole = 3000;
        string half = TestCommands.Put("users/", whole)[..80];

        using Socket socket = await OpenChunkedRequestAsync(server, db);
        await SendChunkAsync(socket, "[" + string.Join(",", Commands(0, whole)) + "," + half);
        // The network goes quiet mid-command, so the server commits everything whole it has read. The count is read
        // from the database: a progress line is rate-limited, so two commits close together may share one line.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while ((await FolioApi.StatsAsync(server.Client, db)).CountOfDocuments != whole)
        {
            Assert.True(clock.Elapsed < TestTimeouts.Default, "the 3000 whole commands were never all committed");
            await Task.Delay(20);
        }
        Reset(socket);
        LogEvent stopped = await WaitForStopAsync(server, db);

        Assert.Equal((long)whole, CapturingSink.Scalar(stopped, "Documents"));
        await AssertPrefixStoredAsync(server.Client, db, whole);
    }

    [Fact]
    public async Task Post_KeepsOnlyWholeCommittedBatches_WhenClientDisconnectsWhileStreaming()
    {
        await using RunningServer server = await RunningServer.StartAsync("--BulkInsert:MaxBatchCommands=500");
        string db = await FolioApi.CreateDatabaseAsync(server.Client);
        const int sent = 30_000;

        using Socket socket = await OpenChunkedRequestAsync(server, db);
        await SendChunkAsync(socket, "[");
        for (int start = 0; start < sent; start += 1000)
            await SendChunkAsync(socket, (start == 0 ? string.Empty : ",") + string.Join(",", Commands(start, 1000)));
        await SendChunkAsync(socket, "," + TestCommands.Put("users/", sent)[..100]);
        // Cut the connection at once: whatever was in flight decides what stays.
        Reset(socket);
        LogEvent stopped = await WaitForStopAsync(server, db);

        long committed = (long)CapturingSink.Scalar(stopped, "Documents")!;
        Assert.InRange(committed, 0, sent);
        await AssertPrefixStoredAsync(server.Client, db, (int)committed);
    }

    /// <summary>
    /// Batches commit in stream order, each whole or not at all, so what is stored must be exactly the
    /// first <paramref name="count"/> commands, each document complete, and nothing after them.
    /// </summary>
    private static async Task AssertPrefixStoredAsync(HttpClient client, string db, int count)
    {
        Assert.Equal(count, (await FolioApi.StatsAsync(client, db)).CountOfDocuments);
        List<JsonElement> stored = await BulkInsertApi.LoadAllAsync(client, db, "users/");
        Assert.Equal(count, stored.Count);
        var seen = new bool[count];
        foreach (JsonElement document in stored)
        {
            int index = BulkInsertApi.IndexOf(document);
            TestCommands.AssertWhole(document, index);
            seen[index] = true;
        }

        Assert.DoesNotContain(false, seen);
    }

    private static Task<LogEvent> WaitForStopAsync(RunningServer server, string db) =>
        server.Log.WaitForAsync(
            e => e.MessageTemplate.Text.Contains("stopped after", StringComparison.Ordinal) && CapturingSink.Scalar(e, "Database") as string == db,
            "for the bulk insert to stop");

    private static List<string> Commands(int start, int count)
    {
        var list = new List<string>(count);
        for (int i = start; i < start + count; i++)
            list.Add(TestCommands.Put("users/", i));
        return list;
    }

    private static async Task<Socket> OpenChunkedRequestAsync(RunningServer server, string db)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(new IPEndPoint(IPAddress.Loopback, server.Server.Address.Port));
        string head = $"POST {BulkInsertApi.Uri(db)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
        await socket.SendAsync(Encoding.ASCII.GetBytes(head));
        return socket;
    }

    private static async Task SendChunkAsync(Socket socket, string data)
    {
        byte[] payload = Encoding.UTF8.GetBytes(data);
        byte[] header = Encoding.ASCII.GetBytes(payload.Length.ToString("x", CultureInfo.InvariantCulture) + "\r\n");
        await socket.SendAsync(header);
        await socket.SendAsync(payload);
        await socket.SendAsync("\r\n"u8.ToArray());
    }

    /// <summary>Closes with a TCP reset, as a crashed client or a pulled cable would end it, without the last chunk.</summary>
    private static void Reset(Socket socket)
    {
        socket.LingerState = new LingerOption(true, 0);
        socket.Close();
    }
}
