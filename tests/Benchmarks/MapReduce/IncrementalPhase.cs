using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.MapReduce;

/// <summary>
/// Part 2 of mapreduce-load: a database whose only companies are groups of the given sizes (<c>groups/10000</c>
/// holds 10,000 orders, …), indexed by the by-company map/reduce index. Each update PUTs one order of a group with a
/// new freight and 100 more on its first line's quantity, then asks for the group's row with
/// <c>WaitForNonStaleResults</c> until its quantity shows the update (the time until current). Updates go round
/// the groups in turn, so the machine's noise falls on every size alike. SQLite then does the same updates,
/// each followed by re-aggregating the group from its rows; the final rows of both must agree.
/// </summary>
public sealed class IncrementalPhase(MapReduceLoadCommand.Options options, string work, MapReduceReport report)
{
    private const int ExtraQuantity = 100;
    private readonly int[] _sizes = options.GroupSizes;
    private readonly int[] _starts = Starts(options.GroupSizes);

    private int Total => _starts[^1] + _sizes[^1];

    /// <summary>Loads both stores, runs Folio's updates, then SQLite's, and compares the final rows.</summary>
    public async Task RunAsync()
    {
        using var sqlite = new SqliteOrders(Path.Combine(work, "incremental.sqlite"));
        Console.Error.WriteLine($"SQLite: loading {Total:N0} orders in {_sizes.Length} groups");
        var watch = Stopwatch.StartNew();
        long lines = sqlite.Load(0, Total, GroupOf);
        TimeSpan indexing = sqlite.IndexCompanies();
        report.AddBuild("incremental data: load + CREATE INDEX orders(company)", "SQLite", Total, $"{lines:N0} lines; index {indexing.TotalSeconds:0.0} s", watch.Elapsed, null, BenchServers.LoadAverage());
        var baseQuantity = new long[_sizes.Length];
        for (int g = 0; g < _sizes.Length; g++)
            baseQuantity[g] = sqlite.Aggregate(GroupName(g)).Quantity;

        Dictionary<string, GroupTotals> folioRows = await RunFolioAsync(baseQuantity);
        RunSqlite(sqlite, baseQuantity);

        var expected = new Dictionary<string, GroupTotals>(StringComparer.OrdinalIgnoreCase);
        for (int g = 0; g < _sizes.Length; g++)
            expected[GroupName(g)] = sqlite.Aggregate(GroupName(g));
        report.Check(GroupCheck.Compare($"Folio Orders/ByCompany vs SQLite after {options.Updates} updates per group", folioRows, expected, report.Failures));
    }

    private static int[] Starts(int[] sizes)
    {
        var starts = new int[sizes.Length];
        for (int g = 1; g < sizes.Length; g++)
            starts[g] = starts[g - 1] + sizes[g - 1];
        return starts;
    }

    /// <summary>Group <paramref name="g"/>'s company name, after its size: <c>groups/10000</c>.</summary>
    private string GroupName(int g) => "groups/" + _sizes[g].ToString(CultureInfo.InvariantCulture);

    private string GroupOf(int n)
    {
        int g = _starts.Length - 1;
        while (_starts[g] > n)
            g--;
        return GroupName(g);
    }

    /// <summary>The order update <paramref name="k"/> of group <paramref name="g"/> changes: spread over the group, each order at most once.</summary>
    private int OrderOf(int g, int k) => _starts[g] + (int)((long)k * _sizes[g] / options.Updates);

    private static int NewFreightCents(int n) => (MapReduceOrders.FreightCents(n) + 12_345) % 100_000;

    private async Task<Dictionary<string, GroupTotals>> RunFolioAsync(long[] baseQuantity)
    {
        string data = Path.Combine(work, "folio-incremental");
        Dictionary<string, GroupTotals> rows;
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(data, Path.Combine(work, "folio-incremental.log")))
        using (HttpClient client = BenchServers.CreateClient(folio.Url))
        {
            await BenchServers.CreateFolioDatabaseAsync(client);
            Console.Error.WriteLine($"Folio: loading {Total:N0} orders in {_sizes.Length} groups");
            await BenchServers.LoadFolioAsync(client, Total, 4, MapReduceOrders.Id, n => MapReduceOrders.Json(n, GroupOf(n), MapReduceOrders.FreightCents(n), 0));
            long etag = await FolioIndexing.LastEtagAsync(client);
            IndexBuild build = await FolioIndexing.BuildAsync(folio, client, MapReduceIndexes.ByCompany.Name, MapReduceIndexes.ByCompanyJson, etag);
            report.AddBuild($"incremental data: map/reduce by Company over {_sizes.Length} groups (PUT index → not stale)", "Folio", Total,
                $"{build.MapEntries:N0} map entries, {build.Groups:N0} groups", build.Elapsed, build.ServerCpu, build.LoadAverage);
            for (int g = 0; g < _sizes.Length; g++)
            {
                GroupTotals? row = await FolioIndexing.QueryGroupAsync(client, MapReduceIndexes.ByCompany, GroupName(g));
                if (row is not { } r || r.Count != _sizes[g] || r.Quantity != baseQuantity[g])
                    report.Failures.Add($"Folio's row for {GroupName(g)} before the updates is {row}, expected {_sizes[g]} orders and quantity {baseQuantity[g]}.");
            }

            await UpdateFolioAsync(folio, client, baseQuantity);
            rows = await FolioIndexing.ReadRowsAsync(client, MapReduceIndexes.ByCompany);
            await folio.StopAsync();
        }

        if (!options.Keep)
            Directory.Delete(data, recursive: true);
        return rows;
    }

    private async Task UpdateFolioAsync(HttpServerProcess folio, HttpClient client, long[] baseQuantity)
    {
        Console.Error.WriteLine($"Folio: {options.Updates} updates per group, round the groups in turn");
        // Warm-up (JIT, connection): a few updates of the last orders of the first group, not measured.
        long warmQuantity = baseQuantity[0];
        for (int w = 0; w < options.Warmup; w++)
        {
            int n = _starts[0] + _sizes[0] - 1 - w;
            warmQuantity += ExtraQuantity;
            await UpdateOneAsync(client, 0, n, warmQuantity);
        }

        var untilCurrent = new double[_sizes.Length][];
        var writes = new double[_sizes.Length][];
        var batches = new double[_sizes.Length][];
        var reduces = new double[_sizes.Length][];
        var cpu = new double[_sizes.Length];
        var quantity = new long[_sizes.Length];
        for (int g = 0; g < _sizes.Length; g++)
        {
            untilCurrent[g] = new double[options.Updates];
            writes[g] = new double[options.Updates];
            batches[g] = new double[options.Updates];
            reduces[g] = new double[options.Updates];
            quantity[g] = g == 0 ? warmQuantity : baseQuantity[g];
        }

        for (int k = 0; k < options.Updates; k++)
        {
            for (int g = 0; g < _sizes.Length; g++)
            {
                quantity[g] += ExtraQuantity;
                TimeSpan before = folio.CpuTime;
                (double write, double current) = await UpdateOneAsync(client, g, OrderOf(g, k), quantity[g]);
                cpu[g] += (folio.CpuTime - before).TotalMilliseconds;
                writes[g][k] = write;
                untilCurrent[g][k] = current;
                // After the timed span: the one-document batch this update made, as the index's stats saw it.
                (batches[g][k], reduces[g][k]) = await FolioIndexing.LastBatchAsync(client, MapReduceIndexes.ByCompany.Name);
            }
        }

        string loadAverage = BenchServers.LoadAverage();
        for (int g = 0; g < _sizes.Length; g++)
            report.AddUpdates("Folio (PUT, then query with WaitForNonStaleResults until the row shows it)", _sizes[g],
                new UpdateCosts(untilCurrent[g], writes[g], null, batches[g], reduces[g], cpu[g] / options.Updates), loadAverage, $"folio-update-{g}");
    }

    /// <summary>One update: PUT the order, then query the group until its quantity is <paramref name="expectedQuantity"/>; returns (PUT ms, until current ms).</summary>
    private async Task<(double Write, double Current)> UpdateOneAsync(HttpClient client, int g, int n, long expectedQuantity)
    {
        byte[] json = MapReduceOrders.Json(n, GroupName(g), NewFreightCents(n), ExtraQuantity);
        long started = Stopwatch.GetTimestamp();
        await FolioIndexing.PutAsync(client, MapReduceOrders.Id(n), json);
        double write = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
        for (int attempt = 0; ; attempt++)
        {
            GroupTotals? row = await FolioIndexing.QueryGroupAsync(client, MapReduceIndexes.ByCompany, GroupName(g));
            if (row is { } r && r.Quantity == expectedQuantity && r.Count == _sizes[g])
                break;
            if (attempt == 1000)
                throw new InvalidOperationException($"{GroupName(g)} never showed quantity {expectedQuantity} after {MapReduceOrders.Id(n)} was updated (last row {row}).");
        }

        return (write, Stopwatch.GetElapsedTime(started).TotalMilliseconds);
    }

    private void RunSqlite(SqliteOrders sqlite, long[] baseQuantity)
    {
        int updates = Math.Min(options.SqliteUpdates, options.Updates);
        Console.Error.WriteLine($"SQLite: {updates} updates per group, each followed by re-aggregating the group");
        for (int w = 0; w < options.Warmup; w++)
        {
            int n = _starts[0] + _sizes[0] - 1 - w;
            sqlite.Update(n, NewFreightCents(n), MapReduceOrders.Line(n, 0).Quantity + ExtraQuantity);
            sqlite.Aggregate(GroupName(0));
        }

        var quantity = (long[])baseQuantity.Clone();
        quantity[0] += (long)options.Warmup * ExtraQuantity;
        var totals = new double[_sizes.Length][];
        var writes = new double[_sizes.Length][];
        var again = new double[_sizes.Length][];
        for (int g = 0; g < _sizes.Length; g++)
        {
            totals[g] = new double[updates];
            writes[g] = new double[updates];
            again[g] = new double[updates];
        }

        for (int k = 0; k < updates; k++)
        {
            for (int g = 0; g < _sizes.Length; g++)
            {
                int n = OrderOf(g, k);
                quantity[g] += ExtraQuantity;
                long started = Stopwatch.GetTimestamp();
                sqlite.Update(n, NewFreightCents(n), MapReduceOrders.Line(n, 0).Quantity + ExtraQuantity);
                long updated = Stopwatch.GetTimestamp();
                GroupTotals row = sqlite.Aggregate(GroupName(g));
                long done = Stopwatch.GetTimestamp();
                if (row.Quantity != quantity[g] || row.Count != _sizes[g])
                    report.Failures.Add($"SQLite's {GroupName(g)} after update {k} is {row}, expected quantity {quantity[g]}.");
                writes[g][k] = Stopwatch.GetElapsedTime(started, updated).TotalMilliseconds;
                again[g][k] = Stopwatch.GetElapsedTime(updated, done).TotalMilliseconds;
                totals[g][k] = Stopwatch.GetElapsedTime(started, done).TotalMilliseconds;
            }
        }

        // The rest of Folio's updates, untimed, so both stores end with the same values.
        for (int k = updates; k < options.Updates; k++)
        {
            for (int g = 0; g < _sizes.Length; g++)
            {
                int n = OrderOf(g, k);
                sqlite.Update(n, NewFreightCents(n), MapReduceOrders.Line(n, 0).Quantity + ExtraQuantity);
            }
        }

        string loadAverage = BenchServers.LoadAverage();
        for (int g = 0; g < _sizes.Length; g++)
            report.AddUpdates("SQLite (UPDATE, then SELECT COUNT/SUM of the group)", _sizes[g], new UpdateCosts(totals[g], writes[g], again[g], null, null, double.NaN), loadAverage, $"sqlite-update-{g}");
    }
}
