using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability;

public class RestartTests
{
    [Fact]
    public async Task Documents_SurviveGracefulRestart_InProcess()
    {
        await using RunningServer first = await RunningServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(first.Client);
        var stored = new Dictionary<string, string>();
        for (int i = 0; i < 20; i++)
            stored[$"users/{i}"] = (await FolioApi.StoreAsync(first.Client, db, $"users/{i}", $$"""{"N":{{i}}}""")).ChangeVector;
        await first.Client.DeleteAsync(FolioApi.DocsUri(db, "users/0"));
        DatabaseStats before = await FolioApi.StatsAsync(first.Client, db);
        await first.StopAsync();

        await using RunningServer second = await RunningServer.StartOnAsync(first.DataDir);

        Assert.Equal(before, await FolioApi.StatsAsync(second.Client, db));
        Assert.Null(await FolioApi.LoadAsync(second.Client, db, "users/0"));
        for (int i = 1; i < 20; i++)
        {
            JsonElement document = (await FolioApi.LoadAsync(second.Client, db, $"users/{i}"))!.Value;
            Assert.Equal(i, document.GetProperty("N").GetInt32());
            Assert.Equal(stored[$"users/{i}"], document.GetProperty("@metadata").GetProperty("@change-vector").GetString());
        }

        // The etag sequence continues where it stopped, so change vectors never repeat.
        var (_, next) = await FolioApi.StoreAsync(second.Client, db, "users/new", "{}");
        Assert.StartsWith($"A:{before.LastDocEtag + 1}-", next, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AcknowledgedWrites_SurviveKill9_OfServerProcess()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            var acknowledged = new ConcurrentDictionary<string, string>();
            string db;
            await using (ServerProcess server = await ServerProcess.StartAsync(dataDir))
            {
                db = await FolioApi.CreateDatabaseAsync(server.Client);

                // Writers keep going while the process is killed, so some requests are in flight at the kill.
                using var stop = new CancellationTokenSource();
                var reachedTarget = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                var writers = new Task[16];
                for (int w = 0; w < writers.Length; w++)
                    writers[w] = WriteUntilStoppedAsync(server.Client, db, w, acknowledged, reachedTarget, stop.Token);

                await reachedTarget.Task.WaitAsync(TestTimeouts.Default);
                await server.KillAsync();
                stop.Cancel();
                await Task.WhenAll(writers);
            }

            Assert.True(acknowledged.Count >= 200);
            await using ServerProcess restarted = await ServerProcess.StartAsync(dataDir);
            foreach (KeyValuePair<string, string> write in acknowledged)
            {
                JsonElement? document = await FolioApi.LoadAsync(restarted.Client, db, write.Key);
                Assert.True(document.HasValue, $"Acknowledged document {write.Key} is missing after kill -9.");
                Assert.Equal(write.Value, document.Value.GetProperty("@metadata").GetProperty("@change-vector").GetString());
                Assert.Equal(write.Key, document.Value.GetProperty("Id").GetString());
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }

    [Fact]
    public async Task Shutdown_WithWritesInFlight_KeepsEveryAcknowledgedWrite_AndAnswersNo500()
    {
        await using RunningServer first = await RunningServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(first.Client);
        var acknowledged = new ConcurrentDictionary<string, string>();
        var reachedTarget = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var stop = new CancellationTokenSource();
        var writers = new Task[16];
        for (int w = 0; w < writers.Length; w++)
            writers[w] = WriteUntilStoppedAsync(first.Client, db, w, acknowledged, reachedTarget, stop.Token, target: 50);

        await reachedTarget.Task.WaitAsync(TestTimeouts.Default);
        await first.Server.StopAsync();
        stop.Cancel();
        await Task.WhenAll(writers);
        await first.StopAsync();

        Assert.DoesNotContain(first.Log.Events, e => e.Level >= Serilog.Events.LogEventLevel.Error);
        await using RunningServer second = await RunningServer.StartOnAsync(first.DataDir);
        foreach (KeyValuePair<string, string> write in acknowledged)
        {
            JsonElement? document = await FolioApi.LoadAsync(second.Client, db, write.Key);
            Assert.True(document.HasValue, $"Acknowledged document {write.Key} is missing after shutdown.");
            Assert.Equal(write.Value, document.Value.GetProperty("@metadata").GetProperty("@change-vector").GetString());
        }
    }

    private static async Task WriteUntilStoppedAsync(
        HttpClient client,
        string db,
        int writer,
        ConcurrentDictionary<string, string> acknowledged,
        TaskCompletionSource reachedTarget,
        CancellationToken stop,
        int target = 200)
    {
        for (int i = 0; !stop.IsCancellationRequested; i++)
        {
            string id = $"docs/{writer}-{i}";
            try
            {
                using HttpResponseMessage response = await FolioApi.PutAsync(client, db, id, $$"""{"Id":"{{id}}","Payload":"{{new string('x', 200)}}"}""");
                if (response.StatusCode != HttpStatusCode.Created)
                {
                    // Only a refusal of a stopping server is acceptable; a 5xx would be a half-done write.
                    Assert.True((int)response.StatusCode < 500, $"A write answered {(int)response.StatusCode}.");
                    return;
                }

                using JsonDocument answer = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
                acknowledged[id] = answer.RootElement.GetProperty("ChangeVector").GetString()!;
                if (acknowledged.Count >= target)
                    reachedTarget.TrySetResult();
            }
            catch (Exception e) when (ConnectionCut.IsCut(e))
            {
                // The process died under this request: it was never acknowledged, so it may or may not be there.
                return;
            }
        }
    }
}
