using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using Folio.Client;
using Folio.Client.Subscriptions;

namespace Folio.Benchmarks.Soak;

/// <summary>
/// The mixed load a soak keeps up: CRUD on a fixed key space, queries on a static, an auto and a map/reduce index,
/// bulk inserts over a rolling key range (so the data stops growing once it has gone round), tenant databases that idle
/// unload keeps closing, index resets, a subscription worker and a changes consumer. Every request's latency is
/// recorded; a failure is an error unless it is an answer the operation allows (a 404 for a deleted document).
/// </summary>
public sealed class SoakWorkload(HttpClient http, DocumentStore store, SoakLatencies latencies, int tenants)
{
    /// <summary>The soak's main database.</summary>
    public const string Database = "soak";

    private const int Keys = 20_000;
    private const int BulkRange = 50_000;
    private const int BulkBatch = 5_000;
    private static readonly string[] Companies = CreateCompanies();
    private long _subscribed;
    private long _changes;
    private long _bulkNext;

    /// <summary>Documents the subscription worker has received.</summary>
    public long Subscribed => Interlocked.Read(ref _subscribed);

    /// <summary>Changes the changes consumer has received.</summary>
    public long Changes => Interlocked.Read(ref _changes);

    /// <summary>Creates the databases, the indexes, the subscription and the first documents.</summary>
    /// <returns>Completes when all is in place.</returns>
    public async Task SetUpAsync()
    {
        await SendAsync(HttpMethod.Put, "/admin/databases", $$"""{"Name":"{{Database}}"}""", HttpStatusCode.Created);
        await SendAsync(HttpMethod.Put, $"/databases/{Database}/indexes", """
            {"Indexes":[
              {"Name":"Orders/ByCompany","Collections":["Orders"],"Fields":{"Company":{"Path":"Company"},"Total":{"Path":"Total","Type":"Double"}}},
              {"Name":"Orders/Totals","Collections":["Orders"],"Reduce":{"GroupBy":["Company"],"Aggregations":{"Count":{"Op":"Count"},"Total":{"Op":"Sum","Path":"Total"}}}}]}
            """, HttpStatusCode.OK, HttpStatusCode.Created);
        for (int start = 0; start < Keys; start += 1_000)
        {
            var body = new StringBuilder("{\"Commands\":[");
            for (int i = start; i < start + 1_000; i++)
                body.Append(i == start ? "" : ",").Append(CultureInfo.InvariantCulture, $$"""{"Type":"PUT","Id":"orders/{{i}}","Document":{{Order(i)}}}""");
            await SendAsync(HttpMethod.Post, $"/databases/{Database}/bulk_docs", body.Append("]}").ToString(), HttpStatusCode.Created);
        }

        for (int t = 0; t < tenants; t++)
            await SendAsync(HttpMethod.Put, "/admin/databases", $$"""{"Name":"{{Tenant(t)}}"}""", HttpStatusCode.Created);
        await store.Subscriptions.CreateAsync(new SubscriptionCreationOptions { Name = "soak-orders", Query = "from Orders" }, Database);
    }

    /// <summary>Runs every worker until <paramref name="stop"/> is cancelled.</summary>
    /// <param name="stop">Ends the run.</param>
    /// <returns>Completes when every worker has ended.</returns>
    public Task RunAsync(CancellationToken stop) =>
        Task.WhenAll(
            Task.Run(() => CrudAsync(1, stop)),
            Task.Run(() => CrudAsync(2, stop)),
            Task.Run(() => CrudAsync(3, stop)),
            Task.Run(() => CrudAsync(4, stop)),
            Task.Run(() => QueriesAsync(stop)),
            Task.Run(() => BulkInsertsAsync(stop)),
            Task.Run(() => TenantsAsync(stop)),
            Task.Run(() => ResetsAsync(stop)),
            Task.Run(() => SubscriptionAsync(stop)),
            Task.Run(() => ChangesAsync(stop)));

    private async Task CrudAsync(int seed, CancellationToken stop)
    {
        var random = new Random(seed);
        while (!stop.IsCancellationRequested)
        {
            int key = random.Next(Keys);
            int dice = random.Next(10);
            if (dice < 6)
                await TimedAsync(SoakOperation.Get, HttpMethod.Get, $"/databases/{Database}/docs?id=orders/{key}", null, stop, HttpStatusCode.OK, HttpStatusCode.NotFound);
            else if (dice < 9)
                await TimedAsync(SoakOperation.Put, HttpMethod.Put, $"/databases/{Database}/docs?id=orders/{key}", Order(key + random.Next(1_000)), stop, HttpStatusCode.Created, HttpStatusCode.OK);
            else
                await TimedAsync(SoakOperation.Delete, HttpMethod.Delete, $"/databases/{Database}/docs?id=orders/{key}", null, stop, HttpStatusCode.NoContent, HttpStatusCode.NotFound);
        }
    }

    private async Task QueriesAsync(CancellationToken stop)
    {
        var random = new Random(5);
        while (!stop.IsCancellationRequested)
        {
            string company = Companies[random.Next(Companies.Length)];
            await QueryAsync(SoakOperation.StaticQuery, $"from index 'Orders/ByCompany' where Company = '{company}' order by Total as double desc limit 20", stop);
            await QueryAsync(SoakOperation.AutoQuery, $"from Orders where Employee = 'employees/{random.Next(50)}' limit 20", stop);
            await QueryAsync(SoakOperation.MapReduceQuery, $"from index 'Orders/Totals' where Company = '{company}'", stop);
        }
    }

    private async Task BulkInsertsAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            long started = Stopwatch.GetTimestamp();
            try
            {
                await using (var bulk = store.BulkInsert(Database, stop))
                {
                    for (int i = 0; i < BulkBatch; i++)
                    {
                        long n = Interlocked.Increment(ref _bulkNext) % BulkRange;
                        await bulk.StoreAsync(new BulkOrder { Company = Companies[n % Companies.Length], Total = n % 997 }, $"bulk/{n}", stop);
                    }

                    await bulk.FinishAsync(stop);
                }

                latencies.Record(SoakOperation.BulkInsert, started);
            }
            catch (Exception ex) when (!stop.IsCancellationRequested)
            {
                latencies.Error(SoakOperation.BulkInsert, ex.Message);
            }

            await PauseAsync(TimeSpan.FromSeconds(15), stop);
        }
    }

    private async Task TenantsAsync(CancellationToken stop)
    {
        var random = new Random(7);
        while (!stop.IsCancellationRequested)
        {
            string tenant = Tenant(random.Next(tenants));
            long started = Stopwatch.GetTimestamp();
            bool put = await SendTimedAsync(SoakOperation.Tenant, HttpMethod.Put, $"/databases/{tenant}/docs?id=notes/{random.Next(100)}", """{"Text":"tenant note"}""", stop, HttpStatusCode.Created, HttpStatusCode.OK);
            bool got = put && await SendTimedAsync(SoakOperation.Tenant, HttpMethod.Get, $"/databases/{tenant}/docs?startsWith=notes/&pageSize=5", null, stop, HttpStatusCode.OK);
            if (got)
                latencies.Record(SoakOperation.Tenant, started);
            await PauseAsync(TimeSpan.FromSeconds(1), stop);
        }
    }

    private async Task ResetsAsync(CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            await PauseAsync(TimeSpan.FromMinutes(2), stop);
            if (!stop.IsCancellationRequested)
                await TimedAsync(SoakOperation.IndexReset, HttpMethod.Post, $"/databases/{Database}/indexes/reset?name=Orders/ByCompany", null, stop, HttpStatusCode.NoContent, HttpStatusCode.OK);
        }
    }

    private async Task SubscriptionAsync(CancellationToken stop)
    {
        await using SubscriptionWorker<BulkOrder> worker = store.Subscriptions.GetSubscriptionWorker<BulkOrder>(new SubscriptionWorkerOptions { SubscriptionName = "soak-orders", MaxDocsPerBatch = 1_000 }, Database);
        try
        {
            await worker.RunAsync(batch =>
            {
                Interlocked.Add(ref _subscribed, batch.Items.Count);
                return Task.CompletedTask;
            }, stop);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }
        catch (Exception ex) when (!stop.IsCancellationRequested)
        {
            latencies.Error(SoakOperation.Get, "subscription worker: " + ex.Message);
        }
    }

    private async Task ChangesAsync(CancellationToken stop)
    {
        try
        {
            await foreach (var _ in store.Changes(Database).ForAllDocumentsAsync(cancellationToken: stop))
                Interlocked.Increment(ref _changes);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
        }
        catch (Exception ex) when (!stop.IsCancellationRequested)
        {
            latencies.Error(SoakOperation.Get, "changes consumer: " + ex.Message);
        }
    }

    private Task QueryAsync(SoakOperation operation, string rql, CancellationToken stop) =>
        TimedAsync(operation, HttpMethod.Post, $"/databases/{Database}/queries", $$"""{"Query":{{System.Text.Json.JsonSerializer.Serialize(rql)}}}""", stop, HttpStatusCode.OK);

    private async Task TimedAsync(SoakOperation operation, HttpMethod method, string path, string? body, CancellationToken stop, params HttpStatusCode[] allowed)
    {
        long started = Stopwatch.GetTimestamp();
        if (await SendTimedAsync(operation, method, path, body, stop, allowed))
            latencies.Record(operation, started);
    }

    private async Task<bool> SendTimedAsync(SoakOperation operation, HttpMethod method, string path, string? body, CancellationToken stop, params HttpStatusCode[] allowed)
    {
        try
        {
            using var request = new HttpRequestMessage(method, path);
            if (body is not null)
                request.Content = new StringContent(body, Encoding.UTF8, "application/json");
            using HttpResponseMessage response = await http.SendAsync(request, stop);
            if (Array.IndexOf(allowed, response.StatusCode) >= 0)
            {
                await response.Content.CopyToAsync(Stream.Null, stop);
                return true;
            }

            string problem = await response.Content.ReadAsStringAsync(stop);
            latencies.Error(operation, $"{method} {path}: {(int)response.StatusCode} {problem[..Math.Min(problem.Length, 300)]}");
        }
        catch (Exception ex) when (!stop.IsCancellationRequested)
        {
            latencies.Error(operation, $"{method} {path}: {ex.Message}");
        }
        catch (OperationCanceledException)
        {
        }

        return false;
    }

    private async Task SendAsync(HttpMethod method, string path, string body, params HttpStatusCode[] expected)
    {
        using var request = new HttpRequestMessage(method, path) { Content = new StringContent(body, Encoding.UTF8, "application/json") };
        using HttpResponseMessage response = await http.SendAsync(request);
        if (Array.IndexOf(expected, response.StatusCode) < 0)
            throw new InvalidOperationException($"{method} {path} answered {(int)response.StatusCode}: {await response.Content.ReadAsStringAsync()}");
    }

    private static async Task PauseAsync(TimeSpan delay, CancellationToken stop)
    {
        try
        {
            await Task.Delay(delay, stop);
        }
        catch (OperationCanceledException)
        {
        }
    }

    private static string Order(int n) =>
        string.Create(CultureInfo.InvariantCulture, $$$"""{"Company":"{{{Companies[n % Companies.Length]}}}","Employee":"employees/{{{n % 50}}}","Total":{{{n % 997}}}.5,"Lines":[{"Product":"products/{{{n % 77}}}","Quantity":{{{1 + (n % 9)}}}}],"@metadata":{"@collection":"Orders"}}""");

    private static string Tenant(int t) => "soak-tenant-" + t.ToString(CultureInfo.InvariantCulture);

    private static string[] CreateCompanies()
    {
        var companies = new string[200];
        for (int i = 0; i < companies.Length; i++)
            companies[i] = "companies/" + i.ToString(CultureInfo.InvariantCulture);
        return companies;
    }

    /// <summary>What bulk inserts write and the subscription reads.</summary>
    public sealed class BulkOrder
    {
        /// <summary>The order's company.</summary>
        public string Company { get; set; } = "";

        /// <summary>The order's total.</summary>
        public double Total { get; set; }
    }
}
