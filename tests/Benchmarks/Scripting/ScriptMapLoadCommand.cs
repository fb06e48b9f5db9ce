using System.Globalization;
using System.Text;
using Folio.Benchmarks.Http;
using Folio.Benchmarks.MapReduce;
using Folio.Benchmarks.Search;

namespace Folio.Benchmarks.Scripting;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- script-map-load [--docs 100000] [--rounds 2]</c>: builds a map
/// index over <c>--docs</c> small users against Folio.Server.dll as a child process, the same map three ways: its fields
/// as paths (the peer: the declarative map the seeds' simple JavaScript maps translate to), the same map as a Jint-run
/// <c>MapScript</c>, and a script that computes (string concatenation, a condition). Each build is timed from the put
/// until the index is not stale at the last etag, with the server's CPU time; the variants alternate round by round.
/// </summary>
public static class ScriptMapLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "script-map-load";

    private const string Fields = "\"Fields\":{\"Name\":{\"Path\":\"Name\"},\"Age\":{\"Path\":\"Age\",\"Type\":\"Long\"},\"City\":{\"Path\":\"City\"}}";

    private static readonly (string Label, string Name, string Definition)[] Variants =
    [
        ("fields by path (declarative)", "Users/Paths",
            "{\"Name\":\"Users/Paths\",\"Collections\":[\"Users\"],\"Fields\":{\"Name\":{\"Path\":\"Name\"},\"Age\":{\"Path\":\"Age\",\"Type\":\"Long\"},\"City\":{\"Path\":\"Address.City\"}}}"),
        ("the same map through Jint", "Users/Script",
            "{\"Name\":\"Users/Script\",\"Collections\":[\"Users\"],\"MapScript\":\"map('Users', u => ({ Name: u.Name, Age: u.Age, City: u.Address.City }))\"," + Fields + "}"),
        ("a computing map through Jint", "Users/Computed",
            "{\"Name\":\"Users/Computed\",\"Collections\":[\"Users\"],\"MapScript\":\"map('Users', u => { const adult = u.Age >= 18; return { Name: u.Name + ' ' + u.Last, Age: adult ? u.Age : 0, City: u.Address.City.toUpperCase() }; })\"," + Fields + "}"),
    ];

    /// <summary>Runs the command.</summary>
    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 100_000;
        int rounds = 2;
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--docs"] = v => documents = CommandOptions.Int(v),
            ["--rounds"] = v => rounds = CommandOptions.Int(v),
        };
        if (!CommandOptions.Parse(args, "Usage: script-map-load [--docs N] [--rounds N]", values, new(StringComparer.Ordinal)))
            return 2;

        string work = Path.Combine(Path.GetTempPath(), "folio-script-map-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        try
        {
            using HttpServerProcess folio = await BenchServers.StartFolioAsync(Path.Combine(work, "folio"), Path.Combine(work, "folio.log"));
            using HttpClient client = BenchServers.CreateClient(folio.Url);
            await BenchServers.CreateFolioDatabaseAsync(client);
            await BenchServers.LoadFolioAsync(client, documents, 8, i => $"users/{i}", i => Encoding.UTF8.GetBytes(
                $"{{\"Name\":\"User {i}\",\"Last\":\"L{i % 1000}\",\"Age\":{i % 90},\"Address\":{{\"City\":\"city {i % 500}\"}},\"@metadata\":{{\"@collection\":\"Users\"}}}}"));
            long etag = await FolioIndexing.LastEtagAsync(client);
            Console.WriteLine($"script-map-load: {documents:N0} users, {rounds} rounds; load {BenchServers.LoadAverage()}");

            var builds = new List<IndexBuild>[Variants.Length];
            for (int round = 0; round < rounds; round++)
            {
                for (int v = 0; v < Variants.Length; v++)
                {
                    builds[v] ??= [];
                    IndexBuild build = await FolioIndexing.BuildAsync(folio, client, Variants[v].Name, Variants[v].Definition, etag, reset: round > 0);
                    if (build.Entries != documents || build.Errors != 0)
                        throw new InvalidOperationException($"{Variants[v].Name}: {build.Entries} entries and {build.Errors} errors, expected {documents} and 0.");
                    builds[v].Add(build);
                    Console.WriteLine($"  {Variants[v].Name} round {round + 1}: {build.Elapsed.TotalSeconds:N2} s, server CPU {build.ServerCpu.TotalSeconds:N2} s, load {build.LoadAverage}");
                }
            }

            double peerWall = Best(builds[0], b => b.Elapsed.TotalSeconds), peerCpu = Best(builds[0], b => b.ServerCpu.TotalSeconds);
            var report = new StringBuilder();
            report.AppendLine(CultureInfo.InvariantCulture, $"| map index build over {documents:N0} users (best of {rounds}) | wall to non-stale (s) | docs/s | server CPU (s) | wall ÷ paths | CPU ÷ paths |");
            report.AppendLine("|---|---:|---:|---:|---:|---:|");
            for (int v = 0; v < Variants.Length; v++)
            {
                double wall = Best(builds[v], b => b.Elapsed.TotalSeconds), cpu = Best(builds[v], b => b.ServerCpu.TotalSeconds);
                report.AppendLine(CultureInfo.InvariantCulture, $"| {Variants[v].Label} | {wall:N2} | {documents / wall:N0} | {cpu:N2} | {wall / peerWall:N2}× | {cpu / peerCpu:N2}× |");
            }
            await folio.StopAsync();
            Console.WriteLine();
            Console.WriteLine(report);
            Console.WriteLine($"load average at the end: {BenchServers.LoadAverage()}");
            return 0;
        }
        finally
        {
            Directory.Delete(work, recursive: true);
        }
    }

    private static double Best(List<IndexBuild> builds, Func<IndexBuild, double> measure)
    {
        double best = double.MaxValue;
        foreach (IndexBuild build in builds)
            best = Math.Min(best, measure(build));
        return best;
    }
}
