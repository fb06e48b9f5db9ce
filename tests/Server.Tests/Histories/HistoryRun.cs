using System.Diagnostics;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Histories;

/// <summary>
/// A history recorded against a real Folio process: clients run random operations on a few documents while the
/// process is killed with SIGKILL and restarted at random moments; then, with the clients stopped, one more kill and
/// restart, and a final read of every document.
/// </summary>
internal static class HistoryRun
{
    /// <summary>Records a history.</summary>
    /// <param name="seed">Seeds every random choice (timing still varies from run to run).</param>
    /// <param name="clients">How many clients run at once.</param>
    /// <param name="keyCount">How many documents they share.</param>
    /// <param name="duration">How long the clients run.</param>
    /// <param name="kills">How many kills happen while they run (one more follows).</param>
    /// <param name="log">Receives a line per kill.</param>
    /// <returns>The history.</returns>
    public static async Task<History> RecordAsync(int seed, int clients, int keyCount, TimeSpan duration, int kills, Action<string> log)
    {
        var random = new Random(seed);
        var recorder = new HistoryRecorder();
        var keys = new KeySpace(keyCount);
        string dataDir = RunningServer.NewDataDir();
        try
        {
            await using ServerHolder servers = await ServerHolder.StartAsync(dataDir, recorder);
            string database = await FolioApi.CreateDatabaseAsync((await servers.UpAsync()).Client);
            var workers = new HistoryClient[clients];
            for (int c = 0; c < clients; c++)
                workers[c] = new HistoryClient(c, database, keys, recorder, servers, new Random(random.Next()));
            var seeder = new HistoryClient(clients, database, keys, recorder, servers, new Random(random.Next()));
            await seeder.SeedAsync();

            using var stop = new CancellationTokenSource();
            var running = new Task[clients];
            for (int c = 0; c < clients; c++)
            {
                HistoryClient worker = workers[c];
                running[c] = Task.Run(() => worker.RunAsync(stop.Token));
            }

            var clock = Stopwatch.StartNew();
            try
            {
                for (int kill = 1; kill <= kills; kill++)
                {
                    // Spread the kills over the run, each at a random point of its share.
                    TimeSpan share = duration / (kills + 1);
                    TimeSpan at = share * kill + share * (random.NextDouble() - 0.5);
                    if (at > clock.Elapsed)
                        await Task.Delay(at - clock.Elapsed);
                    long started = Stopwatch.GetTimestamp();
                    await servers.KillAndRestartAsync();
                    log($"kill {kill} at {clock.Elapsed.TotalSeconds:0.0} s; back up after {Stopwatch.GetElapsedTime(started).TotalSeconds:0.0} s");
                }

                if (duration > clock.Elapsed)
                    await Task.Delay(duration - clock.Elapsed);
            }
            finally
            {
                await stop.CancelAsync();
                await Task.WhenAll(running).WaitAsync(TestTimeouts.Default * 2);
            }

            // Everything acknowledged so far must survive one more kill with nothing in flight.
            await servers.KillAndRestartAsync();
            log($"final kill after {clock.Elapsed.TotalSeconds:0.0} s");
            await seeder.FinalReadAsync();
            return recorder.ToHistory();
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }
}
