using System.Globalization;
using System.Net;
using System.Text;

namespace Folio.Benchmarks.Http;

/// <summary>Starts the servers the HTTP benchmarks measure and loads documents into them.</summary>
public static class BenchServers
{
    /// <summary>The database (Folio) or CouchDB database (PouchDB Server) the benchmarks use.</summary>
    public const string Database = "bench";

    /// <summary>Folio.Server.dll, built next to the benchmarks by their project reference (Release when they are).</summary>
    public static string FolioServerDll => Path.Combine(AppContext.BaseDirectory, "Folio.Server.dll");

    /// <summary>
    /// Starts the real server, built in the same configuration as the benchmarks, as a child process
    /// (its runtimeconfig asks for server GC) with console logging off; the request log still goes to
    /// its rolling file as it does in production.
    /// </summary>
    public static Task<HttpServerProcess> StartFolioAsync(string dataDirectory, string logFile, params string[] extraArguments) =>
        HttpServerProcess.StartAsync(
            "dotnet",
            port => [FolioServerDll, $"--DataDir={dataDirectory}", $"--ServerUrl=http://127.0.0.1:{port}", "--TcpPort=0", "--LogToConsole=false", .. extraArguments],
            "/healthz",
            logFile);

    /// <summary>Creates <see cref="Database"/> on a Folio server.</summary>
    public static async Task CreateFolioDatabaseAsync(HttpClient client)
    {
        using var content = new StringContent($"{{\"Name\":\"{Database}\"}}", Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PutAsync("/admin/databases", content);
        if (response.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException($"Creating the Folio database answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    /// <summary>Runs PouchDB Server's setup script (idempotent) and starts it on LevelDB in <paramref name="directory"/>.</summary>
    public static async Task<HttpServerProcess> StartPouchDbAsync(string directory, string logFile)
    {
        string script = Path.Combine(Wrk.HttpDirectory, "node_modules", "pouchdb-server", "bin", "pouchdb-server");
        if (!File.Exists(script))
            throw new InvalidOperationException($"PouchDB Server is not installed: run {Path.Combine(Wrk.HttpDirectory, "setup-http-load.sh")}");
        Directory.CreateDirectory(directory);
        HttpServerProcess server = await HttpServerProcess.StartAsync(
            "node",
            port => [script, "--port", port.ToString(CultureInfo.InvariantCulture), "--dir", directory, "--config", Path.Combine(directory, "config.json"), "--no-stdout-logs"],
            "/",
            logFile);
        using var client = CreateClient(server.Url);
        using HttpResponseMessage created = await client.PutAsync($"/{Database}", null);
        if (created.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException($"Creating the PouchDB database answered {(int)created.StatusCode}.");
        return server;
    }

    /// <summary>A client with no proxy and no timeout (bulk loads of a million documents take a while).</summary>
    public static HttpClient CreateClient(Uri baseAddress) =>
        new(new SocketsHttpHandler { UseProxy = false, MaxConnectionsPerServer = 64 }) { BaseAddress = baseAddress, Timeout = Timeout.InfiniteTimeSpan };

    /// <summary>
    /// Loads documents 0..<paramref name="count"/> through Folio's bulk_docs in batches of 1,000 over
    /// <paramref name="connections"/> connections; <paramref name="id"/> and <paramref name="document"/> make each.
    /// </summary>
    public static Task LoadFolioAsync(HttpClient client, int count, int connections, Func<int, string> id, Func<int, byte[]> document) =>
        LoadAsync(client, $"/databases/{Database}/bulk_docs", count, connections, HttpStatusCode.Created, (body, i) =>
        {
            body.Write("{\"Type\":\"PUT\",\"Id\":\""u8);
            body.Write(Encoding.UTF8.GetBytes(id(i)));
            body.Write("\",\"Document\":"u8);
            body.Write(document(i));
            body.WriteByte((byte)'}');
        }, "{\"Commands\":["u8.ToArray());

    /// <summary>Loads the same documents into PouchDB Server through _bulk_docs, each with its <c>_id</c> in front.</summary>
    public static Task LoadPouchDbAsync(HttpClient client, int count, int connections, Func<int, string> id, Func<int, byte[]> document) =>
        LoadAsync(client, $"/{Database}/_bulk_docs", count, connections, HttpStatusCode.Created, (body, i) =>
        {
            byte[] json = document(i);
            body.Write("{\"_id\":\""u8);
            body.Write(Encoding.UTF8.GetBytes(id(i)));
            body.Write("\","u8);
            body.Write(json.AsSpan(1));
        }, "{\"docs\":["u8.ToArray());

    /// <summary>The first number of /proc/loadavg: how busy the machine was (other builds share it).</summary>
    public static string LoadAverage()
    {
        string text = File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg") : "?";
        return text.Split(' ')[0];
    }

    private static async Task LoadAsync(HttpClient client, string path, int count, int connections, HttpStatusCode expected, Action<MemoryStream, int> writeItem, byte[] start)
    {
        const int batchSize = 1000;
        int nextBatch = -1;
        var loaders = new Task[connections];
        for (int c = 0; c < connections; c++)
        {
            loaders[c] = Task.Run(async () =>
            {
                var body = new MemoryStream();
                for (int batch = Interlocked.Increment(ref nextBatch); batch * batchSize < count; batch = Interlocked.Increment(ref nextBatch))
                {
                    body.SetLength(0);
                    body.Write(start);
                    int first = batch * batchSize;
                    int last = Math.Min(count, first + batchSize);
                    for (int i = first; i < last; i++)
                    {
                        if (i > first)
                            body.WriteByte((byte)',');
                        writeItem(body, i);
                    }

                    body.Write("]}"u8);
                    using var content = new ByteArrayContent(body.GetBuffer(), 0, (int)body.Length);
                    content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
                    using HttpResponseMessage response = await client.PostAsync(path, content);
                    if (response.StatusCode != expected)
                        throw new InvalidOperationException($"POST {path} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
                }
            });
        }

        await Task.WhenAll(loaders);
    }
}
