using System.Net;
using System.Text;
using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using Xunit.Abstractions;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

/// <summary>
/// The documents grid on a collection of a million documents, timed in the browser from the user's action
/// to the rows showing data (docs/benchmarks.md, "Studio grid"). Slow: loading the million takes a minute.
/// </summary>
[Collection(StudioCollection.Name)]
public sealed class GridTimingTests(StudioFixture fixture, ITestOutputHelper output)
{
    private const int Documents = 1_000_000;

    // Runs in the page: does the action, then resolves with the milliseconds until the row shows its data.
    private const string TimeUntilRowLoaded = """
        async ([action, index]) => {
          const before = document.querySelector('#documents-grid');
          const started = performance.now();
          if (action === 'open') document.querySelector('#collections button[data-name="Orders"]').click();
          else { const row = document.querySelector('#goto-row'); row.value = String(Number(action) + 1); row.dispatchEvent(new Event('change')); }
          const selector = `#documents-grid .grid-row[data-index="${index}"][data-loaded="true"]`;
          // Opening replaces the grid: only a row of the new one counts.
          const shown = () => { const row = document.querySelector(selector); return row && (action !== 'open' || row.closest('#documents-grid') !== before); };
          while (!shown()) {
            if (performance.now() - started > 30000) throw new Error(`row ${index} did not show within 30 s`);
            await new Promise(r => requestAnimationFrame(r));
          }
          return performance.now() - started;
        }
        """;

    [BrowserFact]
    [Trait("Category", "Slow")]
    public async Task Grid_ShowsFirstAndNextPage_WithinBudget_OnAMillionDocuments()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        // A million documents take a minute or more on a loaded machine: longer than the shared client waits.
        using (var loader = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = fixture.Address, Timeout = TimeSpan.FromMinutes(15) })
        using (HttpResponseMessage inserted = await loader.PostAsync($"/databases/{studio.Database}/bulk_insert", new OrdersContent(Documents)))
            Assert.True(inserted.StatusCode == HttpStatusCode.Created, await inserted.Content.ReadAsStringAsync());

        await studio.OpenAsync("#/documents");
        await Expect(studio.Page.Locator("#collections button[data-name='Orders']")).ToContainTextAsync("1,000,000");

        double first = await studio.Page.EvaluateAsync<double>(TimeUntilRowLoaded, new object[] { "open", 0 });
        double next = await studio.Page.EvaluateAsync<double>(TimeUntilRowLoaded, new object[] { "100", 100 });
        double jump = await studio.Page.EvaluateAsync<double>(TimeUntilRowLoaded, new object[] { "10000", 10_000 });
        double end = await studio.Page.EvaluateAsync<double>(TimeUntilRowLoaded, new object[] { (Documents - 1).ToString(), Documents - 1 });
        await Expect(studio.Page.Locator("#grid-status")).ToContainTextAsync("of 1,000,000");

        output.WriteLine($"first page {first:F0} ms, next page {next:F0} ms, row 10,000 {jump:F0} ms, last row {end:F0} ms (load {File.ReadAllText("/proc/loadavg").Trim()})");
        Assert.True(first <= 300, $"The first page took {first:F0} ms.");
        Assert.True(next <= 300, $"The next page took {next:F0} ms.");
    }

    /// <summary>A bulk_insert body of orders written as it is sent, so a million documents never sit in memory.</summary>
    private sealed class OrdersContent(int count) : HttpContent
    {
        protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
        {
            var chunk = new StringBuilder(1 << 20);
            chunk.Append('[');
            for (int i = 1; i <= count; i++)
            {
                if (i > 1)
                    chunk.Append(',');
                chunk.Append("{\"Type\":\"PUT\",\"Id\":\"orders/").Append(i)
                    .Append("\",\"Document\":{\"Company\":\"companies/").Append(i % 91)
                    .Append("\",\"Employee\":\"employees/").Append(i % 9)
                    .Append("\",\"Freight\":").Append(i % 1000).Append(".25,\"ShipTo\":{\"City\":\"City ").Append(i % 300)
                    .Append("\",\"Country\":\"C").Append(i % 21).Append("\"},\"@metadata\":{\"@collection\":\"Orders\"}}}");
                if (chunk.Length > 1 << 20)
                {
                    await stream.WriteAsync(Encoding.UTF8.GetBytes(chunk.ToString()));
                    chunk.Clear();
                }
            }

            chunk.Append(']');
            await stream.WriteAsync(Encoding.UTF8.GetBytes(chunk.ToString()));
        }

        protected override bool TryComputeLength(out long length)
        {
            length = 0;
            return false;
        }
    }
}
