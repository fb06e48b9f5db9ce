using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using Folio.Benchmarks.Http;
using Folio.Client;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Benchmarks.Client;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- client-overhead [--docs 2000] [--ops 4000] [--rounds 3] [--batch 100]</c>:
/// what Folio.Client's session costs over plain HttpClient calls doing the same work, against one real server (a child
/// process) in the same run, one request at a time on one connection each:
/// <list type="bullet">
/// <item>load: a new session + <c>LoadAsync&lt;T&gt;(id)</c> vs <c>GET /docs?id=</c> with the body deserialized by Newtonsoft.Json
/// (and, for reference, vs only reading the body's bytes);</item>
/// <item>store one: a new session + <c>StoreAsync</c> + <c>SaveChangesAsync</c> vs <c>PUT /docs?id=</c> of the Newtonsoft-serialized entity;</item>
/// <item>store a batch: <c>--batch</c> entities per <c>SaveChangesAsync</c> vs one <c>POST /bulk_docs</c> of them.</item>
/// </list>
/// Each operation of the session is timed next to one of raw HTTP, in alternating order, so load from other processes
/// falls on both sides; means and medians are reported.
/// Issue 22's target: the session ≤ 1.3× the raw HTTP time.
/// </summary>
public static class ClientOverheadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "client-overhead";

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 2000, ops = 4000, rounds = 3, batch = 100;
        for (int i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--docs": documents = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--ops": ops = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--rounds": rounds = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                case "--batch": batch = int.Parse(args[++i], CultureInfo.InvariantCulture); break;
                default:
                    Console.Error.WriteLine($"Unknown option '{args[i]}'. Options: --docs N --ops N --rounds N --batch N");
                    return 2;
            }
        }

        string work = Path.Combine(Path.GetTempPath(), "folio-client-overhead-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, "folio"), Path.Combine(work, "folio.log"));
        using HttpClient raw = new(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = folio.Url, Timeout = TimeSpan.FromSeconds(100) };
        await BenchServers.CreateFolioDatabaseAsync(raw);
        await BenchServers.LoadFolioAsync(raw, documents, 4, i => "benchorders/" + i, i =>
        {
            JObject json = JObject.FromObject(BenchOrder.Make(i));
            json.Remove("Id");
            json["@metadata"] = new JObject { ["@collection"] = "BenchOrders" };
            return Encoding.UTF8.GetBytes(json.ToString(Formatting.None));
        });

        using var store = new DocumentStore { Urls = [folio.Url.ToString()], Database = BenchServers.Database };
        store.Initialize();
        var operations = new (string Name, Func<int, Task> Client, Func<int, Task> Raw, int Entities)[]
        {
            ("load one (session + LoadAsync vs GET + JsonConvert)", i => ClientLoadAsync(store, i % documents), i => RawLoadAsync(raw, i % documents, deserialize: true), 1),
            ("load one (session + LoadAsync vs GET, bytes only)", i => ClientLoadAsync(store, i % documents), i => RawLoadAsync(raw, i % documents, deserialize: false), 1),
            ("store one (session + SaveChangesAsync vs PUT)", i => ClientStoreAsync(store, i, 1), i => RawPutAsync(raw, i), 1),
            ($"store {batch} (SaveChangesAsync vs POST bulk_docs)", i => ClientStoreAsync(store, i * batch, batch), i => RawBulkAsync(raw, i * batch, batch), batch),
        };

        Console.WriteLine($"client-overhead: {documents:N0} orders loaded; {ops:N0} operations per side per round, {rounds} rounds (work directory {work}); load {BenchServers.LoadAverage()}");
        var report = new StringBuilder();
        report.AppendLine("| operation | round | session µs/entity, mean / p50 | raw HTTP µs/entity, mean / p50 | ratio of means / of p50s | load avg |");
        report.AppendLine("|---|---:|---:|---:|---:|---:|");
        var totals = new Dictionary<string, (double ClientMean, double RawMean, double ClientP50, double RawP50)>();
        int offset = 0;
        foreach (var operation in operations)
        {
            int count = operation.Entities == 1 ? ops : Math.Max(20, ops / operation.Entities);
            // Warm both sides up (JIT, connections, the server's caches).
            for (int i = 0; i < Math.Min(300, count); i++)
            {
                await operation.Client(offset + i);
                await operation.Raw(offset + 1_000_000 + i);
            }
            offset += 2_000_000;
            for (int round = 1; round <= rounds; round++)
            {
                var client = new double[count];
                var rawTimes = new double[count];
                for (int i = 0; i < count; i++)
                {
                    // One of each, in alternating order, so a burst of load from other processes falls on both sides.
                    if ((i & 1) == 0)
                    {
                        client[i] = await TimeAsync(operation.Client, offset + i);
                        rawTimes[i] = await TimeAsync(operation.Raw, offset + 1_000_000 + i);
                    }
                    else
                    {
                        rawTimes[i] = await TimeAsync(operation.Raw, offset + 1_000_000 + i);
                        client[i] = await TimeAsync(operation.Client, offset + i);
                    }
                }
                offset += 2_000_000;
                double clientMean = client.Average() / operation.Entities, rawMean = rawTimes.Average() / operation.Entities;
                double clientP50 = Median(client) / operation.Entities, rawP50 = Median(rawTimes) / operation.Entities;
                totals[operation.Name] = totals.TryGetValue(operation.Name, out var sum)
                    ? (sum.ClientMean + clientMean, sum.RawMean + rawMean, sum.ClientP50 + clientP50, sum.RawP50 + rawP50)
                    : (clientMean, rawMean, clientP50, rawP50);
                report.AppendLine(CultureInfo.InvariantCulture, $"| {operation.Name} | {round} | {clientMean:F1} / {clientP50:F1} | {rawMean:F1} / {rawP50:F1} | {clientMean / rawMean:F2}× / {clientP50 / rawP50:F2}× | {BenchServers.LoadAverage()} |");
                Console.WriteLine($"  {operation.Name}, round {round}: means {clientMean:F1} vs {rawMean:F1} µs ({clientMean / rawMean:F2}×), p50 {clientP50:F1} vs {rawP50:F1} µs ({clientP50 / rawP50:F2}×)");
            }
        }
        foreach (var (name, t) in totals)
            report.AppendLine(CultureInfo.InvariantCulture, $"| {name} | all | {t.ClientMean / rounds:F1} / {t.ClientP50 / rounds:F1} | {t.RawMean / rounds:F1} / {t.RawP50 / rounds:F1} | {t.ClientMean / t.RawMean:F2}× / {t.ClientP50 / t.RawP50:F2}× | |");

        await folio.StopAsync();
        Console.WriteLine();
        Console.WriteLine(report);
        return 0;
    }

    private static async Task<double> TimeAsync(Func<int, Task> operation, int i)
    {
        long begin = Stopwatch.GetTimestamp();
        await operation(i);
        return Stopwatch.GetElapsedTime(begin).TotalMicroseconds;
    }

    private static double Median(double[] values)
    {
        double[] sorted = (double[])values.Clone();
        Array.Sort(sorted);
        return sorted[sorted.Length / 2];
    }

    private static async Task ClientLoadAsync(DocumentStore store, int i)
    {
        await using var session = store.OpenAsyncSession();
        BenchOrder? order = await session.LoadAsync<BenchOrder>("benchorders/" + i);
        if (order is null)
            throw new InvalidOperationException("benchorders/" + i + " is missing");
    }

    private static async Task RawLoadAsync(HttpClient raw, int i, bool deserialize)
    {
        using HttpResponseMessage response = await raw.GetAsync("/databases/" + BenchServers.Database + "/docs?id=" + Uri.EscapeDataString("benchorders/" + i));
        response.EnsureSuccessStatusCode();
        if (!deserialize)
        {
            await response.Content.ReadAsByteArrayAsync();
            return;
        }
        string json = await response.Content.ReadAsStringAsync();
        LoadAnswer answer = JsonConvert.DeserializeObject<LoadAnswer>(json)!;
        if (answer.Results[0] is null)
            throw new InvalidOperationException("benchorders/" + i + " is missing");
    }

    private static async Task ClientStoreAsync(DocumentStore store, int first, int count)
    {
        await using var session = store.OpenAsyncSession();
        for (int i = 0; i < count; i++)
            await session.StoreAsync(BenchOrder.Make(first + i), "client/" + (first + i));
        await session.SaveChangesAsync();
    }

    private static async Task RawPutAsync(HttpClient raw, int i)
    {
        BenchOrder order = BenchOrder.Make(i);
        using var content = new StringContent(JsonConvert.SerializeObject(order), Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await raw.PutAsync("/databases/" + BenchServers.Database + "/docs?id=" + Uri.EscapeDataString("raw/" + i), content);
        if (response.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException("PUT answered " + (int)response.StatusCode);
        await response.Content.ReadAsByteArrayAsync();
    }

    private static async Task RawBulkAsync(HttpClient raw, int first, int count)
    {
        var body = new StringBuilder("{\"Commands\":[");
        for (int i = 0; i < count; i++)
        {
            if (i > 0)
                body.Append(',');
            body.Append("{\"Type\":\"PUT\",\"Id\":\"raw/").Append((first + i).ToString(CultureInfo.InvariantCulture)).Append("\",\"Document\":")
                .Append(JsonConvert.SerializeObject(BenchOrder.Make(first + i))).Append('}');
        }
        body.Append("]}");
        using var content = new StringContent(body.ToString(), Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await raw.PostAsync("/databases/" + BenchServers.Database + "/bulk_docs", content);
        if (response.StatusCode != HttpStatusCode.Created)
            throw new InvalidOperationException("bulk_docs answered " + (int)response.StatusCode);
        await response.Content.ReadAsByteArrayAsync();
    }

    /// <summary>The shape of a load answer, as a raw caller would declare it.</summary>
    private sealed class LoadAnswer
    {
        public List<BenchOrder?> Results { get; set; } = [];
    }
}
