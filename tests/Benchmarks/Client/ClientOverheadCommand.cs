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
/// The sides alternate within each round (client, raw, client, raw …), so load from other processes falls on both.
/// Issue 22's target: the session ≤ 1.3× the raw HTTP time.
/// </summary>
public static class ClientOverheadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "client-overhead";

    private const int Slices = 10;

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
        report.AppendLine("| operation | round | session µs/entity | raw HTTP µs/entity | ratio | load avg |");
        report.AppendLine("|---|---:|---:|---:|---:|---:|");
        var totals = new Dictionary<string, (double Client, double Raw)>();
        int offset = 0;
        foreach (var operation in operations)
        {
            int count = operation.Entities == 1 ? ops : Math.Max(10, ops / operation.Entities);
            // Warm both sides up (JIT, connections, the server's caches).
            await RunAsync(operation.Client, offset, Math.Min(500, count));
            await RunAsync(operation.Raw, offset + 1_000_000, Math.Min(500, count));
            offset += 2_000_000;
            for (int round = 1; round <= rounds; round++)
            {
                TimeSpan client = TimeSpan.Zero, rawTime = TimeSpan.Zero;
                int slice = count / Slices;
                for (int s = 0; s < Slices; s++)
                {
                    client += await RunAsync(operation.Client, offset + (s * slice), slice);
                    rawTime += await RunAsync(operation.Raw, offset + 1_000_000 + (s * slice), slice);
                }
                offset += 2_000_000;
                double entities = (double)slice * Slices * operation.Entities;
                double clientMicros = client.TotalMicroseconds / entities, rawMicros = rawTime.TotalMicroseconds / entities;
                totals[operation.Name] = totals.TryGetValue(operation.Name, out var sum) ? (sum.Client + clientMicros, sum.Raw + rawMicros) : (clientMicros, rawMicros);
                report.AppendLine(CultureInfo.InvariantCulture, $"| {operation.Name} | {round} | {clientMicros:F1} | {rawMicros:F1} | {clientMicros / rawMicros:F2}× | {BenchServers.LoadAverage()} |");
                Console.WriteLine($"  {operation.Name}, round {round}: {clientMicros:F1} vs {rawMicros:F1} µs ({clientMicros / rawMicros:F2}×)");
            }
        }
        foreach (var (name, (client, rawSum)) in totals)
            report.AppendLine(CultureInfo.InvariantCulture, $"| {name} | all | {client / rounds:F1} | {rawSum / rounds:F1} | {client / rawSum:F2}× | |");

        await folio.StopAsync();
        Console.WriteLine();
        Console.WriteLine(report);
        return 0;
    }

    private static async Task<TimeSpan> RunAsync(Func<int, Task> operation, int start, int count)
    {
        long begin = Stopwatch.GetTimestamp();
        for (int i = 0; i < count; i++)
            await operation(start + i);
        return Stopwatch.GetElapsedTime(begin);
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
