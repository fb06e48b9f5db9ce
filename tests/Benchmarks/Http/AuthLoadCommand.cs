using System.Globalization;
using System.Text;
using Folio.Server.Security;

namespace Folio.Benchmarks.Http;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- auth-load [--seconds 10] [--connections 64] [--docs 100000]
/// [--warmup 12] [--repeat 3]</c>: what checking an API key costs a request. GET by random id with wrk against Folio
/// (a child process, as http-load runs it) without authentication and with <c>Security:Authentication=Required</c>
/// and an API key in every request, on the same data, alternating the two so machine load falls on both alike.
/// The warm-up is long because a 3-second one left the secured server still tiering up its JIT code (7% of its CPU
/// in the JIT against 1%), which read as a 20% cost of the check.
/// </summary>
public static class AuthLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "auth-load";

    private const string GetPrefix = $"/databases/{BenchServers.Database}/docs?id=docs/";

    /// <summary>Runs the command.</summary>
    public static int Run(string[] args) => RunAsync(args).GetAwaiter().GetResult();

    private static async Task<int> RunAsync(string[] args)
    {
        int seconds = 10, connections = 64, documents = 100_000, warmup = 12, repeat = 3;
        for (int i = 0; i < args.Length; i++)
        {
            int value = int.Parse(args[++i], CultureInfo.InvariantCulture);
            switch (args[i - 1])
            {
                case "--seconds": seconds = value; break;
                case "--connections": connections = value; break;
                case "--docs": documents = value; break;
                case "--warmup": warmup = value; break;
                case "--repeat": repeat = value; break;
                default: throw new ArgumentException($"Unknown option '{args[i - 1]}'. Options: --seconds N --connections N --docs N --warmup N --repeat N");
            }
        }

        Wrk.EnsureInstalled();
        string work = Path.Combine(Path.GetTempPath(), "folio-auth-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        string data = Path.Combine(work, "folio");
        Directory.CreateDirectory(work);
        string count = documents.ToString(CultureInfo.InvariantCulture);
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(data, Path.Combine(work, "load.log")))
        {
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            await BenchServers.CreateFolioDatabaseAsync(client);
            await BenchServers.LoadFolioAsync(client, documents, 4, i => "docs/" + i.ToString(CultureInfo.InvariantCulture), SampleDocument.Create);
            await folio.StopAsync();
        }

        // The key is made on the data directory before the secured server starts, as an operator does.
        (_, string key) = new CredentialStore(CredentialFile.PathIn(data)).CreateKey("bench", Clearance.Read, [BenchServers.Database]);
        var report = new StringBuilder();
        report.AppendLine("| variant | run | requests/s | p50 ms | p99 ms | errors | server CPU µs/request | load avg |");
        report.AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        var means = new Dictionary<string, List<double>> { ["no authentication"] = [], ["API key"] = [] };
        for (int run = 1; run <= repeat; run++)
        {
            foreach (bool secured in new[] { false, true })
            {
                string name = secured ? "API key" : "no authentication";
                string[] extra = secured ? ["--Security:Authentication=Required"] : [];
                string[] headers = secured ? [$"Authorization: ApiKey {key}"] : [];
                using HttpServerProcess folio = await BenchServers.StartFolioAsync(data, Path.Combine(work, $"{(secured ? "auth" : "open")}-{run}.log"), extra);
                await Wrk.RunAsync(folio.Url, "get-random.lua", [GetPrefix, count], connections, TimeSpan.FromSeconds(warmup), headers);
                TimeSpan cpuBefore = folio.CpuTime;
                WrkResult result = await Wrk.RunAsync(folio.Url, "get-random.lua", [GetPrefix, count], connections, TimeSpan.FromSeconds(seconds), headers);
                double cpu = (folio.CpuTime - cpuBefore).TotalMicroseconds / Math.Max(1, result.Requests);
                string load = BenchServers.LoadAverage();
                means[name].Add(result.RequestsPerSecond);
                Console.WriteLine($"  {name} run {run}: {result.RequestsPerSecond:N0} req/s, p50 {result.P50Ms:0.###} ms, p99 {result.P99Ms:0.###} ms, errors {result.Errors}, server CPU {cpu:0.#} µs/req, load {load}");
                report.AppendLine(CultureInfo.InvariantCulture, $"| {name} | {run} | {result.RequestsPerSecond:N0} | {result.P50Ms:0.00} | {result.P99Ms:0.00} | {result.Errors} | {cpu:0} | {load} |");
                await folio.StopAsync();
            }
        }

        report.AppendLine();
        report.AppendLine(CultureInfo.InvariantCulture, $"API key / no authentication, GET requests/s (means of {repeat} runs): {means["API key"].Average() / means["no authentication"].Average():0.000}");
        Console.WriteLine();
        Console.WriteLine(report);
        return 0;
    }
}
