using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.Http;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks.Scripting;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- projection-load [--docs 10000] [--rounds 20]</c>: one query
/// answering all <c>--docs</c> orders in one page (the server runs with <c>--MaxPageSize</c> that large), projected
/// four ways against Folio.Server.dll as a child process: the plain <c>select Company, Total, Lines</c> (the peer),
/// the same fields as a JavaScript object literal, a JavaScript projection that computes (<c>map</c>/<c>reduce</c>
/// over the lines), and one that loads each order's company. The variants are interleaved round by round so that
/// machine noise falls on all of them alike; reports wall and server CPU per query (p50) and the ratio to the plain one.
/// </summary>
public static class ProjectionLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "projection-load";

    private static readonly (string Name, string Query)[] Variants =
    [
        ("plain `select Company, Total, Lines`", "from Orders select Company, Total, Lines"),
        ("JavaScript, the same fields `select { Company: o.Company, … }`", "from Orders as o select { Company: o.Company, Total: o.Total, Lines: o.Lines }"),
        ("JavaScript computing `map`/`reduce` over the lines", "from Orders as o select { Company: o.Company, Total: o.Lines.reduce((s, l) => s + l.Quantity * l.Price, 0), Products: o.Lines.map(l => l.Product) }"),
        ("JavaScript with `load o.Company as c`", "from Orders as o load o.Company as c select { Company: c.Name, City: c.City, Total: o.Total }"),
    ];

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 10_000;
        int rounds = 20;
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--docs"] = v => documents = CommandOptions.Int(v),
            ["--rounds"] = v => rounds = CommandOptions.Int(v),
        };
        if (!CommandOptions.Parse(args, "Usage: projection-load [--docs N] [--rounds N]", values, new(StringComparer.Ordinal)))
            return 2;

        string work = Path.Combine(Path.GetTempPath(), "folio-projection-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        try
        {
            using HttpServerProcess folio = await BenchServers.StartFolioAsync(
                Path.Combine(work, "folio"), Path.Combine(work, "folio.log"), $"--MaxPageSize={documents}");
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            await BenchServers.CreateFolioDatabaseAsync(client);
            await BenchServers.LoadFolioAsync(client, 1000, 4, i => $"companies/{i}", i => Encoding.UTF8.GetBytes(
                $"{{\"Name\":\"Company {i}\",\"City\":\"City {i % 50}\",\"@metadata\":{{\"@collection\":\"Companies\"}}}}"));
            await BenchServers.LoadFolioAsync(client, documents, 8, i => $"orders/{i}", i => Encoding.UTF8.GetBytes(
                $"{{\"Company\":\"companies/{i % 1000}\",\"Total\":{i % 997},\"Lines\":[{{\"Product\":\"products/{i % 77}\",\"Quantity\":{i % 9 + 1},\"Price\":{i % 13 + 0.5}}},{{\"Product\":\"products/{(i + 5) % 77}\",\"Quantity\":2,\"Price\":3.25}}],\"@metadata\":{{\"@collection\":\"Orders\"}}}}"));
            Console.WriteLine($"projection-load: {documents:N0} orders, {rounds} rounds; load {BenchServers.LoadAverage()}");

            var wall = new List<double>[Variants.Length];
            var cpu = new List<double>[Variants.Length];
            for (int v = 0; v < Variants.Length; v++)
            {
                wall[v] = [];
                cpu[v] = [];
                for (int warm = 0; warm < 3; warm++)
                    await QueryAsync(client, folio, Variants[v].Query, documents);
            }
            for (int round = 0; round < rounds; round++)
            {
                for (int v = 0; v < Variants.Length; v++)
                {
                    var (w, c) = await QueryAsync(client, folio, Variants[v].Query, documents);
                    wall[v].Add(w);
                    cpu[v].Add(c);
                }
            }

            string load = BenchServers.LoadAverage();
            double plainWall = Median(wall[0]), plainCpu = Median(cpu[0]);
            var report = new StringBuilder();
            report.AppendLine(CultureInfo.InvariantCulture, $"| projection of {documents:N0} results | wall p50 (ms) | server CPU p50 (ms) | wall ÷ plain | CPU ÷ plain | load avg |");
            report.AppendLine("|---|---:|---:|---:|---:|---:|");
            for (int v = 0; v < Variants.Length; v++)
            {
                double w = Median(wall[v]), c = Median(cpu[v]);
                report.AppendLine(CultureInfo.InvariantCulture, $"| {Variants[v].Name} | {w:N1} | {c:N1} | {w / plainWall:N2}× | {c / plainCpu:N2}× | {load} |");
            }
            await folio.StopAsync();
            Console.WriteLine();
            Console.WriteLine(report);
            return 0;
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    /// <summary>One query over HTTP, read to the end; checks it answered every order.</summary>
    private static async Task<(double WallMs, double CpuMs)> QueryAsync(HttpClient client, HttpServerProcess folio, string rql, int documents)
    {
        string body = JsonSerializer.Serialize(new { Query = rql + " limit " + documents.ToString(CultureInfo.InvariantCulture) });
        TimeSpan cpuBefore = folio.CpuTime;
        long started = Stopwatch.GetTimestamp();
        using var content = new StringContent(body, Encoding.UTF8, "application/json");
        using HttpResponseMessage response = await client.PostAsync($"/databases/{BenchServers.Database}/queries", content);
        byte[] answer = await response.Content.ReadAsByteArrayAsync();
        double wall = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        double cpuMs = (folio.CpuTime - cpuBefore).TotalMilliseconds;
        if (response.StatusCode != HttpStatusCode.OK)
            throw new InvalidOperationException($"{rql}: {(int)response.StatusCode} {Encoding.UTF8.GetString(answer)}");
        using JsonDocument parsed = JsonDocument.Parse(answer);
        int results = parsed.RootElement.GetProperty("Results").GetArrayLength();
        if (results != documents)
            throw new InvalidOperationException($"{rql}: {results} results, expected {documents}.");
        return (wall, cpuMs);
    }

    private static double Median(List<double> values)
    {
        values.Sort();
        return values[values.Count / 2];
    }
}
