using Folio.Server.Hosting;
using Folio.Studio.Tests.Support;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class StorageViewTests(StudioFixture fixture)
{
    private static readonly string Order = $$$"""{"Notes":"{{{string.Concat(Enumerable.Repeat("deliver before noon to the back door; ", 20))}}}","@metadata":{"@collection":"Orders"}}""";

    [BrowserFact]
    public async Task Storage_SavesTheCompressionChoice_AndNewBodiesFollowIt()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Enumerable.Range(1, 5).Select(i => ($"orders/{i}", Order)));
        await studio.OpenAsync("#/storage");
        const string orders = "#storage-collections tr[data-collection='orders'], #storage-collections tr[data-collection='Orders']";

        // The server compresses every collection by default.
        await Expect(studio.Page.Locator($"{orders} >> .compressed-documents")).ToHaveTextAsync("5");
        await Expect(studio.Page.Locator("#storage-summary")).ToContainTextAsync("Documents are compressed with");
        await Expect(studio.Page.Locator("#compression-source")).ToContainTextAsync("server");
        await Expect(studio.Page.Locator("#compress-all")).ToBeCheckedAsync();
        await studio.Page.Locator("#compress-all").UncheckAsync();
        await studio.Page.Locator("#compress-collections").FillAsync("Products");
        await studio.Page.Locator("#compression-form button[type='submit']").ClickAsync();
        await Expect(studio.Page.Locator("#compression-status")).ToContainTextAsync("Saved");
        await Expect(studio.Page.Locator("#compression-source")).ToContainTextAsync("own setting");

        await studio.InsertAsync(Enumerable.Range(6, 5).Select(i => ($"orders/{i}", Order)));
        await studio.Page.Locator("#refresh-storage").ClickAsync();
        await Expect(studio.Page.Locator($"{orders} >> .documents")).ToHaveTextAsync("10");
        await Expect(studio.Page.Locator($"{orders} >> .compressed-documents")).ToHaveTextAsync("5");
        var setting = await studio.GetJsonAsync($"/databases/{studio.Database}/admin/documents-compression/config");
        Assert.Equal("Products", setting.GetProperty("Collections")[0].GetString());
    }

    [BrowserFact]
    public async Task Storage_ShowsTheServersCompactionEstimate_OnceItHasWeighedTheDatabase()
    {
        // A server of its own that weighs a database soon after its last write, whatever its size.
        string dataDir = Path.Combine(Path.GetTempPath(), "folio-studio-tests", Guid.NewGuid().ToString("N"));
        FolioServer server = FolioServer.Create(["--DataDir=" + dataDir, "--ServerUrl=http://127.0.0.1:0", "--TcpPort=0", "--LogToConsole=false",
            "--JournalFileSizeBytes=4194304", "--Databases:CompactWhenQuietFor=00:00:00.200", "--Databases:CompactMinBytes=0"]);
        try
        {
            await server.StartAsync();
            using var client = new HttpClient(new SocketsHttpHandler { UseProxy = false }) { BaseAddress = server.Address, Timeout = TimeSpan.FromSeconds(60) };
            await using StudioSession studio = await StudioSession.StartAsync(fixture.Browser, server.Address, client);
            await studio.InsertAsync(Enumerable.Range(1, 200).Select(i => ($"orders/{i}", Order)));
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while ((await studio.GetJsonAsync($"/databases/{studio.Database}/stats")).GetProperty("CompactionEstimate").ValueKind != System.Text.Json.JsonValueKind.Object)
            {
                Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), "the server did not weigh the database within 30 s");
                await Task.Delay(50);
            }

            await studio.OpenAsync("#/storage");

            await Expect(studio.Page.Locator("#compaction-estimate")).ToContainTextAsync("The server's last estimate: a compaction would return");
            await Expect(studio.Page.Locator("#compaction-estimate")).ToContainTextAsync("from recompressing");
        }
        finally
        {
            await server.DisposeAsync();
            if (Directory.Exists(dataDir))
                Directory.Delete(dataDir, recursive: true);
        }
    }

    [BrowserFact]
    public async Task Storage_Compact_ShowsTheOutcome()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Enumerable.Range(1, 200).Select(i => ($"orders/{i}", Order)));
        await studio.OpenAsync("#/storage");
        await Expect(studio.Page.Locator("#compaction-status")).ToContainTextAsync("Never compacted");
        await Expect(studio.Page.Locator("#compaction-estimate")).ToContainTextAsync("Not yet weighed");

        await studio.Page.Locator("#compact").ClickAsync();

        await Expect(studio.Page.Locator("#compaction-status")).ToContainTextAsync("Last compaction", new() { Timeout = 30_000 });
        await Expect(studio.Page.Locator("#compact")).ToBeEnabledAsync();
        await Expect(studio.Page.Locator("#storage-trees tr[data-tree='docs']")).ToHaveCountAsync(1);
    }
}
