using System.Globalization;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.MapReduce;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- mapreduce-load [--quick] [--orders 1000000] [--pouch-orders 100000]
/// [--group-sizes 10000,100000,1000000] [--repeat 2] [--updates 200] [--sqlite-updates 50] [--warmup 10] [--skip-build] [--skip-pouchdb] [--skip-incremental] [--keep]</c>:
/// the map/reduce benchmarks of issue 19. Part 1 (<see cref="BuildPhase"/>): orders with ~4 lines each loaded
/// into SQLite, Folio (Folio.Server.dll as a child process) and PouchDB Server; Folio's map/reduce indexes by
/// company and by product timed until not stale next to static indexes over the same fields, SQLite's
/// <c>GROUP BY</c> and PouchDB's <c>_sum</c> views. Part 2 (<see cref="IncrementalPhase"/>): the time until a
/// group's row is current after updating one order, per group size, beside SQLite re-aggregating the group.
/// Every Folio and PouchDB row is checked against SQLite's; a mismatch fails the command.
/// </summary>
public static class MapReduceLoadCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "mapreduce-load";

    /// <summary>What to run, and how much.</summary>
    public sealed record Options(int Orders, int PouchOrders, int[] GroupSizes, int Repeat, int Updates, int SqliteUpdates, int Warmup, bool SkipBuild, bool SkipIncremental, bool Keep);

    private const string Usage = "Options: --quick --orders N --pouch-orders N --group-sizes A,B,C --repeat N --updates N --sqlite-updates N --warmup N --skip-build --skip-pouchdb --skip-incremental --keep";

    /// <summary>Runs the command.</summary>
    public static int Run(string[] args)
    {
        var options = new Options(1_000_000, 100_000, [10_000, 100_000, 1_000_000], 2, 200, 50, 10, false, false, false);
        for (int i = 0; i < args.Length; i++)
        {
            options = args[i] switch
            {
                // About a minute: the same steps on small data.
                "--quick" => options with { Orders = 20_000, PouchOrders = 2_000, GroupSizes = [1_000, 10_000, 100_000], Repeat = 1, Updates = 50, SqliteUpdates = 50, Warmup = 5 },
                "--orders" => options with { Orders = Number(args[++i]) },
                "--pouch-orders" => options with { PouchOrders = Number(args[++i]) },
                "--group-sizes" => options with { GroupSizes = Array.ConvertAll(args[++i].Split(','), Number) },
                "--repeat" => options with { Repeat = Number(args[++i]) },
                "--updates" => options with { Updates = Number(args[++i]) },
                "--sqlite-updates" => options with { SqliteUpdates = Number(args[++i]) },
                "--warmup" => options with { Warmup = Number(args[++i]) },
                "--skip-build" => options with { SkipBuild = true },
                "--skip-pouchdb" => options with { PouchOrders = 0 },
                "--skip-incremental" => options with { SkipIncremental = true },
                "--keep" => options with { Keep = true },
                _ => throw new ArgumentException($"Unknown option '{args[i]}'. {Usage}"),
            };
        }

        for (int g = 0; g < options.GroupSizes.Length; g++)
        {
            if (options.GroupSizes[g] < options.Updates + options.Warmup || Array.IndexOf(options.GroupSizes, options.GroupSizes[g]) != g)
                throw new ArgumentException("Group sizes must be distinct and each at least --updates + --warmup.");
        }

        return RunAsync(options).GetAwaiter().GetResult();
    }

    private static int Number(string text) => int.Parse(text.Replace("_", "", StringComparison.Ordinal), NumberStyles.AllowThousands, CultureInfo.InvariantCulture);

    private static async Task<int> RunAsync(Options options)
    {
        string work = Path.Combine(Path.GetTempPath(), "folio-mapreduce-load-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(work);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"mapreduce-load: {options.Orders:N0} orders ({MapReduceOrders.Companies:N0} companies, {MapReduceOrders.Products:N0} products, 1-{MapReduceOrders.MaxLines} lines), PouchDB {options.PouchOrders:N0}, groups {string.Join(" / ", options.GroupSizes)} × {options.Updates} updates; load avg {BenchServers.LoadAverage()}; work directory {work}"));
        var report = new MapReduceReport();
        try
        {
            if (!options.SkipBuild)
                await new BuildPhase(options, work, report).RunAsync();
            if (!options.SkipIncremental)
                await new IncrementalPhase(options, work, report).RunAsync();
        }
        finally
        {
            if (!options.Keep)
                Directory.Delete(work, recursive: true);
        }

        report.Print(Ratios(options, report));
        return report.Failures.Count == 0 ? 0 : 1;
    }

    private static IEnumerable<string> Ratios(Options options, MapReduceReport report)
    {
        foreach ((string mr, string what) in new[] { ("folio-mr-company", "by company"), ("folio-mr-product", "by product") })
        {
            if (report.Rate(mr) is not { } rate)
                continue;
            if (report.Rate("folio-static-company") is { } staticCompany)
                yield return Ratio($"Folio map/reduce {what} ÷ static index (Company, Freight) build rate ({options.Repeat} build(s) each, mean rates)", rate / staticCompany, "≥ 0.50", rate / staticCompany >= 0.5);
            string twin = mr == "folio-mr-company" ? "folio-static-company" : "folio-static-product";
            if (mr != "folio-mr-company" && report.Rate(twin) is { } staticTwin)
                yield return Ratio($"Folio map/reduce {what} ÷ static index over the same fields (Lines[].Product, Lines[].Quantity)", rate / staticTwin, "no target", null);
            string pouch = mr == "folio-mr-company" ? "pouch-company" : "pouch-product";
            if (report.Rate(pouch) is { } pouchRate)
                yield return Ratio($"Folio map/reduce {what} ÷ PouchDB view build rate ({options.Orders:N0} vs {Math.Min(options.PouchOrders, options.Orders):N0} orders)", rate / pouchRate, "≥ 3", rate / pouchRate >= 3);
            string sqlite = mr == "folio-mr-company" ? "sqlite-company" : "sqlite-product";
            if (report.Rate(sqlite) is { } sqliteRate)
                yield return Ratio($"Folio map/reduce {what} build ÷ SQLite GROUP BY (first run) rate", rate / sqliteRate, "no target", null);
        }

        int last = options.GroupSizes.Length - 1;
        if (report.Rate("folio-update-0") is { } small && report.Rate($"folio-update-{last}") is { } large)
            yield return Ratio($"Folio update until current, p50 at {options.GroupSizes[last]:N0} ÷ at {options.GroupSizes[0]:N0}", large / small, "≤ 2", large / small <= 2);
        if (report.Rate("sqlite-update-0") is { } sqliteSmall && report.Rate($"sqlite-update-{last}") is { } sqliteLarge)
            yield return Ratio($"SQLite update + re-aggregate, p50 at {options.GroupSizes[last]:N0} ÷ at {options.GroupSizes[0]:N0}", sqliteLarge / sqliteSmall, "no target; the issue expects ~100×", null);
    }

    private static string Ratio(string what, double ratio, string target, bool? met) =>
        met is { } m
            ? string.Create(CultureInfo.InvariantCulture, $"{what}: {ratio:0.00}× (target {target}: {(m ? "met" : "missed")})")
            : string.Create(CultureInfo.InvariantCulture, $"{what}: {ratio:0.00}× ({target})");
}
