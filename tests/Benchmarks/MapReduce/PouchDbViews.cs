using System.Diagnostics;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Benchmarks.Http;

namespace Folio.Benchmarks.MapReduce;

/// <summary>One PouchDB view build: the first <c>?reduce=true&amp;group=true</c> query after loading (which builds the view), its CPU time and rows.</summary>
/// <remarks><see cref="Again"/> is the same query on the built view: PouchDB keeps no reduced values, so it reduces every row again per query.</remarks>
public sealed record ViewBuild(string Name, TimeSpan Elapsed, TimeSpan ServerCpu, TimeSpan Again, Dictionary<string, GroupTotals> Rows, string LoadAverage);

/// <summary>PouchDB Server's side of mapreduce-load: a design document per view, each built by its first query.</summary>
public static class PouchDbViews
{
    /// <summary>
    /// Stores the design document <paramref name="designJson"/> (one view, <c>totals</c>) and times its first grouped
    /// query, which maps every document into the view before it answers. <paramref name="quantityAt"/> and
    /// <paramref name="amountAt"/> say where the summed array holds the quantity and the other sum (the count is first).
    /// </summary>
    public static async Task<ViewBuild> BuildAsync(HttpServerProcess server, HttpClient client, string design, string designJson, int quantityAt, int amountAt)
    {
        using (var content = new StringContent(designJson, Encoding.UTF8, "application/json"))
        using (HttpResponseMessage stored = await client.PutAsync($"/{BenchServers.Database}/_design/{design}", content))
        {
            if (stored.StatusCode != HttpStatusCode.Created)
                throw new InvalidOperationException($"Storing _design/{design} answered {(int)stored.StatusCode}: {await stored.Content.ReadAsStringAsync()}");
        }

        TimeSpan cpu = server.CpuTime;
        var watch = Stopwatch.StartNew();
        string text = await client.GetStringAsync($"/{BenchServers.Database}/_design/{design}/_view/totals?reduce=true&group=true");
        TimeSpan elapsed = watch.Elapsed;
        TimeSpan serverCpu = server.CpuTime - cpu;
        watch.Restart();
        using (HttpResponseMessage again = await client.GetAsync($"/{BenchServers.Database}/_design/{design}/_view/totals?reduce=true&group=true"))
            again.EnsureSuccessStatusCode();
        TimeSpan againElapsed = watch.Elapsed;
        var rows = new Dictionary<string, GroupTotals>(StringComparer.OrdinalIgnoreCase);
        using (JsonDocument answer = JsonDocument.Parse(text))
        {
            foreach (JsonElement row in answer.RootElement.GetProperty("rows").EnumerateArray())
            {
                JsonElement value = row.GetProperty("value");
                rows[row.GetProperty("key").GetString() ?? "null"] = new GroupTotals(
                    (long)value[0].GetDouble(), (long)value[quantityAt].GetDouble(), value[amountAt].GetDouble());
            }
        }

        return new ViewBuild("_design/" + design, elapsed, serverCpu, againElapsed, rows, BenchServers.LoadAverage());
    }
}
