using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.MapReduce;

/// <summary>
/// Part 1 of mapreduce-load: the same orders in SQLite (load, then <c>GROUP BY</c>), in Folio (bulk_docs, then each
/// index built alone until not stale: static by company, map/reduce by company, static by product, map/reduce by
/// product; then, <c>--repeat</c> times in all, each reset and rebuilt in the same order) and in PouchDB Server (<c>_bulk_docs</c>, then each view built by its first grouped query), one store
/// after the other so none shares the cores with another. Folio's and PouchDB's rows are checked against SQLite's.
/// </summary>
public sealed class BuildPhase(MapReduceLoadCommand.Options options, string work, MapReduceReport report)
{
    /// <summary>Runs the three stores in turn.</summary>
    public async Task RunAsync()
    {
        using var sqlite = new SqliteOrders(Path.Combine(work, "build.sqlite"));
        (Dictionary<string, GroupTotals> companies, Dictionary<string, GroupTotals> products) = RunSqlite(sqlite);
        await RunFolioAsync(companies, products);
        if (options.PouchOrders > 0)
            await RunPouchDbAsync(sqlite);
    }

    private (Dictionary<string, GroupTotals> Companies, Dictionary<string, GroupTotals> Products) RunSqlite(SqliteOrders sqlite)
    {
        Console.Error.WriteLine($"SQLite: loading {options.Orders:N0} orders");
        var watch = Stopwatch.StartNew();
        long lines = sqlite.Load(0, options.Orders, n => MapReduceOrders.CompanyName(MapReduceOrders.Company(n)));
        report.AddBuild("load (one transaction, prepared INSERTs)", "SQLite", options.Orders, $"{options.Orders:N0} orders + {lines:N0} lines", watch.Elapsed, null, BenchServers.LoadAverage());

        // Twice each: the first reads the file through the OS cache into SQLite's, the second from its cache.
        Dictionary<string, GroupTotals>? companies = null, products = null;
        for (int run = 1; run <= 2; run++)
        {
            (companies, TimeSpan elapsed) = sqlite.GroupByCompany();
            report.AddBuild($"GROUP BY company, run {run}", "SQLite", options.Orders, $"{companies.Count:N0} groups", elapsed, null, BenchServers.LoadAverage(), run == 1 ? "sqlite-company" : null);
        }

        for (int run = 1; run <= 2; run++)
        {
            (products, TimeSpan elapsed) = sqlite.GroupByProduct();
            report.AddBuild($"GROUP BY product, run {run}", "SQLite", options.Orders, $"{products.Count:N0} groups", elapsed, null, BenchServers.LoadAverage(), run == 1 ? "sqlite-product" : null);
        }

        return (companies!, products!);
    }

    private async Task RunFolioAsync(Dictionary<string, GroupTotals> companies, Dictionary<string, GroupTotals> products)
    {
        Console.Error.WriteLine($"Folio: loading {options.Orders:N0} orders");
        string data = Path.Combine(work, "folio");
        using (HttpServerProcess folio = await BenchServers.StartFolioAsync(data, Path.Combine(work, "folio.log")))
        using (HttpClient client = BenchServers.CreateClient(folio.Url))
        {
            await BenchServers.CreateFolioDatabaseAsync(client);
            TimeSpan cpu = folio.CpuTime;
            var watch = Stopwatch.StartNew();
            await BenchServers.LoadFolioAsync(client, options.Orders, 4, MapReduceOrders.Id, MapReduceOrders.Json);
            report.AddBuild("load (bulk_docs, batches of 1,000, 4 connections)", "Folio", options.Orders, "", watch.Elapsed, folio.CpuTime - cpu, BenchServers.LoadAverage());
            long etag = await FolioIndexing.LastEtagAsync(client);

            // Each index built alone; later runs reset each in the same order (its data thrown away, rebuilt from the documents).
            for (int run = 1; run <= options.Repeat; run++)
            {
                await BuildAsync(folio, client, "static index: Company exact, Freight double", MapReduceIndexes.StaticCompanyName, MapReduceIndexes.StaticCompanyJson, etag, run, "folio-static-company");
                await BuildAsync(folio, client, "map/reduce by Company: Count, Sum(Freight), Sum(Lines[].Quantity)", MapReduceIndexes.ByCompany.Name, MapReduceIndexes.ByCompanyJson, etag, run, "folio-mr-company");
                await BuildAsync(folio, client, "static index: Lines[].Product exact, Lines[].Quantity long", MapReduceIndexes.StaticProductName, MapReduceIndexes.StaticProductJson, etag, run, "folio-static-product");
                await BuildAsync(folio, client, "map/reduce by Lines[].Product: Count, Sum(Quantity), Sum(PricePerUnit)", MapReduceIndexes.ByProduct.Name, MapReduceIndexes.ByProductJson, etag, run, "folio-mr-product");
            }

            report.Check(GroupCheck.Compare("Folio Orders/ByCompany vs SQLite", await FolioIndexing.ReadRowsAsync(client, MapReduceIndexes.ByCompany), companies, report.Failures));
            report.Check(GroupCheck.Compare("Folio Orders/ByProduct vs SQLite", await FolioIndexing.ReadRowsAsync(client, MapReduceIndexes.ByProduct), products, report.Failures));
            await folio.StopAsync();
        }

        if (!options.Keep)
            Directory.Delete(data, recursive: true);
    }

    private async Task BuildAsync(HttpServerProcess folio, HttpClient client, string step, string name, string json, long etag, int run, string rateKey)
    {
        Console.Error.WriteLine($"Folio: building {name}, run {run}");
        IndexBuild build = await FolioIndexing.BuildAsync(folio, client, name, json, etag, reset: run > 1);
        string detail = build.MapEntries > 0
            ? string.Create(CultureInfo.InvariantCulture, $"{build.MapEntries:N0} map entries, {build.Groups:N0} groups")
            : string.Create(CultureInfo.InvariantCulture, $"{build.Entries:N0} entries");
        if (build.Errors > 0)
            report.Failures.Add($"{name} recorded {build.Errors} index errors.");
        string how = run == 1 ? "PUT index → not stale" : $"run {run}: reset → not stale";
        report.AddBuild($"{step} ({how})", "Folio", options.Orders, detail, build.Elapsed, build.ServerCpu, build.LoadAverage, rateKey);
        report.Note($"Folio {name}, run {run}: {build.Batches}");
    }

    private async Task RunPouchDbAsync(SqliteOrders sqlite)
    {
        int orders = Math.Min(options.PouchOrders, options.Orders);
        Console.Error.WriteLine($"PouchDB Server: loading {orders:N0} orders");
        string data = Path.Combine(work, "pouchdb");
        using (HttpServerProcess pouch = await BenchServers.StartPouchDbAsync(data, Path.Combine(work, "pouchdb.log")))
        using (HttpClient client = BenchServers.CreateClient(pouch.Url))
        {
            TimeSpan cpu = pouch.CpuTime;
            var watch = Stopwatch.StartNew();
            await BenchServers.LoadPouchDbAsync(client, orders, 4, MapReduceOrders.Id, MapReduceOrders.Json);
            report.AddBuild("load (_bulk_docs, batches of 1,000, 4 connections)", "PouchDB Server", orders, "", watch.Elapsed, pouch.CpuTime - cpu, BenchServers.LoadAverage());

            Console.Error.WriteLine("PouchDB Server: building _design/company");
            ViewBuild company = await PouchDbViews.BuildAsync(pouch, client, "company", MapReduceIndexes.PouchByCompanyDesign, quantityAt: 2, amountAt: 1);
            report.AddBuild("view by Company → [1, Freight, Σ line quantities], _sum (first ?group=true query)", "PouchDB Server", orders, $"{company.Rows.Count:N0} groups", company.Elapsed, company.ServerCpu, company.LoadAverage, "pouch-company");
            report.Note(string.Create(CultureInfo.InvariantCulture, $"PouchDB _design/company: the same query on the built view took {company.Again.TotalSeconds:0.00} s (PouchDB reduces the view's rows on every query)"));
            Console.Error.WriteLine("PouchDB Server: building _design/product");
            ViewBuild product = await PouchDbViews.BuildAsync(pouch, client, "product", MapReduceIndexes.PouchByProductDesign, quantityAt: 1, amountAt: 2);
            report.AddBuild("view by line Product → [1, Quantity, PricePerUnit], _sum (first ?group=true query)", "PouchDB Server", orders, $"{product.Rows.Count:N0} groups", product.Elapsed, product.ServerCpu, product.LoadAverage, "pouch-product");
            report.Note(string.Create(CultureInfo.InvariantCulture, $"PouchDB _design/product: the same query on the built view took {product.Again.TotalSeconds:0.00} s"));

            report.Check(GroupCheck.Compare($"PouchDB _design/company vs SQLite (orders below {orders:N0})", company.Rows, sqlite.GroupByCompany(orders).Groups, report.Failures));
            report.Check(GroupCheck.Compare($"PouchDB _design/product vs SQLite (orders below {orders:N0})", product.Rows, sqlite.GroupByProduct(orders).Groups, report.Failures));
            await pouch.StopAsync();
        }

        if (!options.Keep)
            Directory.Delete(data, recursive: true);
    }
}
