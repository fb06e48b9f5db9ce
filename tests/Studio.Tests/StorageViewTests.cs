using Folio.Studio.Tests.Support;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class StorageViewTests(StudioFixture fixture)
{
    private static readonly string Order = $$$"""{"Notes":"{{{string.Concat(Enumerable.Repeat("deliver before noon to the back door; ", 20))}}}","@metadata":{"@collection":"Orders"}}""";

    [BrowserFact]
    public async Task Storage_SavesTheCompressionChoice_AndShowsCompressedBodiesAfterWrites()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Enumerable.Range(1, 5).Select(i => ($"orders/{i}", Order)));
        await studio.OpenAsync("#/storage");

        await Expect(studio.Page.Locator("#storage-collections tr[data-collection='orders'] .compressed-documents, #storage-collections tr[data-collection='Orders'] .compressed-documents")).ToHaveTextAsync("0");
        await Expect(studio.Page.Locator("#compression-source")).ToContainTextAsync("server");
        await studio.Page.Locator("#compress-collections").FillAsync("Orders");
        await studio.Page.Locator("#compression-form button[type='submit']").ClickAsync();
        await Expect(studio.Page.Locator("#compression-status")).ToContainTextAsync("Saved");
        await Expect(studio.Page.Locator("#compression-source")).ToContainTextAsync("own setting");

        await studio.InsertAsync(Enumerable.Range(6, 5).Select(i => ($"orders/{i}", Order)));
        await studio.Page.Locator("#refresh-storage").ClickAsync();
        await Expect(studio.Page.Locator("#storage-collections tr[data-collection='orders'] .compressed-documents, #storage-collections tr[data-collection='Orders'] .compressed-documents")).ToHaveTextAsync("5");
        var setting = await studio.GetJsonAsync($"/databases/{studio.Database}/admin/documents-compression/config");
        Assert.Equal("Orders", setting.GetProperty("Collections")[0].GetString());
    }

    [BrowserFact]
    public async Task Storage_Compact_ShowsTheOutcome()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Enumerable.Range(1, 200).Select(i => ($"orders/{i}", Order)));
        await studio.OpenAsync("#/storage");
        await Expect(studio.Page.Locator("#compaction-status")).ToContainTextAsync("Never compacted");

        await studio.Page.Locator("#compact").ClickAsync();

        await Expect(studio.Page.Locator("#compaction-status")).ToContainTextAsync("Last compaction", new() { Timeout = 30_000 });
        await Expect(studio.Page.Locator("#compact")).ToBeEnabledAsync();
        await Expect(studio.Page.Locator("#storage-trees tr[data-tree='docs']")).ToHaveCountAsync(1);
    }
}
