using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.Subscriptions;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- subscription-load [--docs 1000000] [--batch 16384] [--repeat 2]</c>:
/// loads orders into Folio (Folio.Server.dll as a child process), then reads all of them, in the same run, through a data
/// subscription over TCP (a worker that parses every batch and acknowledges it) and through the REST stream of
/// <c>from Orders</c> (the whole answer parsed). Issue 22's target: ≥ 100,000 documents/s through the subscription.
/// </summary>
public static class SubscriptionLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "subscription-load";

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 1_000_000;
        int batch = 16_384;
        int repeat = 2;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--docs": documents = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--batch": batch = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--repeat": repeat = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                default:
                    Console.Error.WriteLine($"Unknown option '{args[i]}'. Options: --docs N --batch N --repeat N");
                    return 2;
            }
        }

        string work = Path.Combine(Path.GetTempPath(), "folio-subscription-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        int tcpPort = HttpServerProcess.FreePort();
        using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, "folio"), Path.Combine(work, "folio.log"), $"--TcpPort={tcpPort}");
        using HttpClient client = BenchServers.CreateClient(folio.Url);
        await BenchServers.CreateFolioDatabaseAsync(client);
        Console.WriteLine($"subscription-load: loading {documents:N0} orders (work directory {work}) …");
        await BenchServers.LoadFolioAsync(client, documents, 8, i => $"orders/{i}", i => Encoding.UTF8.GetBytes(
            $"{{\"Company\":\"companies/{i % 1000}\",\"Total\":{i % 997},\"Lines\":[{{\"Product\":\"products/{i % 77}\",\"Quantity\":{i % 9 + 1}}}],\"@metadata\":{{\"@collection\":\"Orders\"}}}}"));

        var report = new StringBuilder();
        report.AppendLine("| reader | run | documents | seconds | documents/s | load avg |");
        report.AppendLine("|---|---:|---:|---:|---:|---:|");
        var endPoint = new IPEndPoint(IPAddress.Loopback, tcpPort);
        for (int run = 1; run <= repeat; run++)
        {
            // Without a where, no document is parsed on the server; with one (matching every order), each is.
            foreach ((string name, string query, string reader) in new[]
            {
                ($"all-{run}", "from Orders", "subscription over TCP, `from Orders`"),
                ($"where-{run}", "from Orders where Total >= 0", "subscription over TCP, `from Orders where Total >= 0`"),
            })
            {
                using (HttpResponseMessage created = await client.PutAsync($"/databases/{BenchServers.Database}/subscriptions", new StringContent($"{{\"Name\":\"{name}\",\"Query\":\"{query}\"}}", Encoding.UTF8, "application/json")))
                    created.EnsureSuccessStatusCode();
                (long delivered, TimeSpan subscription) = await ConsumeAsync(endPoint, name, documents, batch);
                Add(report, reader, run, delivered, subscription);
            }

            (long streamed, TimeSpan rest) = await StreamAsync(client);
            Add(report, "REST stream of `from Orders`", run, streamed, rest);
        }

        await folio.StopAsync();
        Console.WriteLine();
        Console.WriteLine(report);
        return 0;
    }

    private static void Add(StringBuilder report, string reader, int run, long count, TimeSpan elapsed)
    {
        string load = BenchServers.LoadAverage();
        double rate = count / elapsed.TotalSeconds;
        Console.WriteLine($"  {reader}, run {run}: {count:N0} documents in {elapsed.TotalSeconds:N2} s = {rate:N0}/s (load {load})");
        report.AppendLine(CultureInfo.InvariantCulture, $"| {reader} | {run} | {count:N0} | {elapsed.TotalSeconds:N2} | {rate:N0} | {load} |");
    }

    /// <summary>A worker: parses every batch, counts its documents, acknowledges it, until all arrived.</summary>
    private static async Task<(long Count, TimeSpan Elapsed)> ConsumeAsync(IPEndPoint endPoint, string subscription, int documents, int batch)
    {
        var watch = Stopwatch.StartNew();
        using var tcp = new TcpClient { NoDelay = true };
        await tcp.ConnectAsync(endPoint);
        await using NetworkStream stream = tcp.GetStream();
        using var reader = new StreamReader(stream, new UTF8Encoding(false), false, 1 << 20);
        await stream.WriteAsync(Encoding.UTF8.GetBytes($"{{\"Database\":\"{BenchServers.Database}\",\"Subscription\":\"{subscription}\",\"BatchSize\":{batch}}}\n"));
        long count = 0;
        while (count < documents)
        {
            string line = await reader.ReadLineAsync() ?? throw new InvalidOperationException("The server closed the subscription.");
            using JsonDocument message = JsonDocument.Parse(line);
            string type = message.RootElement.GetProperty("Type").GetString()!;
            if (type == "Error")
                throw new InvalidOperationException(line);
            if (type != "Batch")
                continue;
            count += message.RootElement.GetProperty("Items").GetArrayLength();
            long lastEtag = message.RootElement.GetProperty("LastEtag").GetInt64();
            await stream.WriteAsync(Encoding.UTF8.GetBytes($"{{\"Type\":\"Ack\",\"LastEtag\":{lastEtag}}}\n"));
        }

        return (count, watch.Elapsed);
    }

    /// <summary>The REST way for any client: the streamed query answer, parsed whole.</summary>
    private static async Task<(long Count, TimeSpan Elapsed)> StreamAsync(HttpClient client)
    {
        var watch = Stopwatch.StartNew();
        using HttpResponseMessage response = await client.GetAsync($"/databases/{BenchServers.Database}/streams/queries?query={Uri.EscapeDataString("from Orders")}", HttpCompletionOption.ResponseHeadersRead);
        response.EnsureSuccessStatusCode();
        await using Stream body = await response.Content.ReadAsStreamAsync();
        using JsonDocument answer = await JsonDocument.ParseAsync(body);
        return (answer.RootElement.GetProperty("Results").GetArrayLength(), watch.Elapsed);
    }
}
