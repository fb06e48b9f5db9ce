using System.Diagnostics;
using System.Net;
using System.Text;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>
/// Loads the same records into PouchDB Server (LevelDB in a temporary directory) through <c>_bulk_docs</c>
/// in batches of 1,000, the way CouchDB clients bulk load.
/// </summary>
public static class PouchDbLoader
{
    public static string InstallDirectory => Path.GetFullPath(Path.Combine(FindBenchmarksDirectory(), "PouchDb"));

    /// <summary>Runs the install script (idempotent) and returns the server's script path.</summary>
    public static async Task<string> EnsureInstalledAsync()
    {
        string script = Path.Combine(InstallDirectory, "setup.sh");
        using Process setup = Process.Start(new ProcessStartInfo("bash", [script]) { UseShellExecute = false })
            ?? throw new InvalidOperationException("Could not run " + script);
        await setup.WaitForExitAsync();
        if (setup.ExitCode != 0)
            throw new InvalidOperationException($"{script} failed with {setup.ExitCode}.");
        return Path.Combine(InstallDirectory, "node_modules", "pouchdb-server", "bin", "pouchdb-server");
    }

    public static async Task<LoadResult> RunAsync(string serverScript, string workDirectory, byte[][] records, int streams, int batchSize, long payloadBytes)
    {
        string dataDir = Path.Combine(workDirectory, "pouchdb-" + streams);
        Directory.CreateDirectory(dataDir);
        using ChildProcess server = await ChildProcess.StartAsync(
            "node",
            port => [serverScript, "--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture), "--dir", dataDir, "--config", Path.Combine(dataDir, "config.json"), "--no-stdout-logs"],
            dataDir,
            "/",
            Path.Combine(workDirectory, $"pouchdb-{streams}.log"));
        using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Url, Timeout = Timeout.InfiniteTimeSpan };
        using (HttpResponseMessage created = await client.PutAsync("/bench", null))
        {
            if (created.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"Creating the PouchDB database answered {(int)created.StatusCode}.");
        }

        TimeSpan cpuBefore = server.CpuTime;
        var watch = Stopwatch.StartNew();
        var loaders = new Task[streams];
        int per = records.Length / streams;
        for (int s = 0; s < streams; s++)
        {
            int start = s * per;
            int end = s == streams - 1 ? records.Length : start + per;
            loaders[s] = LoadRangeAsync(client, records, start, end, batchSize);
        }

        await Task.WhenAll(loaders);
        watch.Stop();
        TimeSpan cpu = server.CpuTime - cpuBefore;

        string info = await client.GetStringAsync("/bench");
        using var json = System.Text.Json.JsonDocument.Parse(info);
        long count = json.RootElement.GetProperty("doc_count").GetInt64();
        if (count != records.Length)
            throw new InvalidOperationException($"PouchDB Server holds {count} documents; expected {records.Length}.");
        return new LoadResult("PouchDB Server _bulk_docs", streams, records.Length, watch.Elapsed, payloadBytes) { ServerCpu = cpu };
    }

    private static async Task LoadRangeAsync(HttpClient client, byte[][] records, int start, int end, int batchSize)
    {
        var body = new MemoryStream(batchSize * 1200);
        for (int first = start; first < end; first += batchSize)
        {
            body.SetLength(0);
            body.Write("{\"docs\":["u8);
            int last = Math.Min(end, first + batchSize);
            for (int i = first; i < last; i++)
            {
                if (i > first)
                    body.WriteByte((byte)',');
                // The same record with CouchDB's id field in front: {"_id":"orders/N", …}.
                body.Write("{\"_id\":\"orders/"u8);
                body.Write(Encoding.ASCII.GetBytes(i.ToString(System.Globalization.CultureInfo.InvariantCulture)));
                body.Write("\","u8);
                body.Write(records[i].AsSpan(1));
            }

            body.Write("]}"u8);
            using var content = new ByteArrayContent(body.GetBuffer(), 0, (int)body.Length);
            content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
            using HttpResponseMessage response = await client.PostAsync("/bench/_bulk_docs", content);
            if (response.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"_bulk_docs answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
        }
    }

    private static string FindBenchmarksDirectory()
    {
        // The source folder, found upwards from the binaries (bin/Release/net10.0 under tests/Benchmarks).
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Folio.Benchmarks.csproj")))
                return directory.FullName;
        }

        throw new DirectoryNotFoundException("tests/Benchmarks not found above " + AppContext.BaseDirectory);
    }
}
