using System.Text;
using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class ImportAndDatabasesViewTests(StudioFixture fixture)
{
    [BrowserFact]
    public async Task Import_StreamsAnNdjsonFile_WithProgressToTheEnd()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        var file = new StringBuilder();
        for (int i = 1; i <= 20_000; i++)
            file.Append($$"""{"Id":"items/{{i}}","Name":"Item {{i}}","Text":"{{new string('x', 200)}}"}""").Append('\n');
        await studio.OpenAsync("#/import");

        await studio.Page.Locator("#import-file").SetInputFilesAsync(new FilePayload { Name = "items.ndjson", MimeType = "application/x-ndjson", Buffer = Encoding.UTF8.GetBytes(file.ToString()) });
        await studio.Page.Locator("#import-collection").FillAsync("Items");
        await studio.Page.Locator("#import-start").ClickAsync();

        await Expect(studio.Page.Locator("#import-status [data-done='true']")).ToContainTextAsync("Imported 20,000 documents", new() { Timeout = 60_000 });
        Assert.Equal(1.0, await studio.Page.Locator("#import-progress").EvaluateAsync<double>("e => e.value"));
        var stats = await studio.GetJsonAsync($"/databases/{studio.Database}/collections/stats");
        Assert.Equal(20_000, stats.GetProperty("Collections").GetProperty("Items").GetInt32());
        var item = await studio.GetJsonAsync($"/databases/{studio.Database}/docs?id=items/20000");
        Assert.Equal("Item 20000", item.GetProperty("Results")[0].GetProperty("Name").GetString());
    }

    [BrowserFact]
    public async Task Import_ReadsAJsonArray_AndExportWritesNdjson()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        string array = "[" + string.Join(",", Enumerable.Range(1, 50).Select(i => $$"""{"@metadata":{"@id":"notes/{{i}}","@collection":"Notes"},"Text":"a, [b] {c} \"{{i}}\""}""")) + "]";
        await studio.OpenAsync("#/import");

        await studio.Page.Locator("#import-file").SetInputFilesAsync(new FilePayload { Name = "notes.json", MimeType = "application/json", Buffer = Encoding.UTF8.GetBytes(array) });
        await studio.Page.Locator("#import-start").ClickAsync();
        await Expect(studio.Page.Locator("#import-status [data-done='true']")).ToContainTextAsync("Imported 50 documents");

        await Expect(studio.Page.Locator("#export-collection option[value='Notes']")).ToHaveCountAsync(1);
        await studio.Page.Locator("#export-collection").SelectOptionAsync("Notes");
        IDownload download = await studio.Page.RunAndWaitForDownloadAsync(() => studio.Page.Locator("#export-start").ClickAsync());
        string path = await download.PathAsync();
        string[] lines = File.ReadAllLines(path);
        Assert.Equal(50, lines.Length);
        Assert.Contains(lines, l => l.Contains("a, [b] {c} \\\"7\\\"", StringComparison.Ordinal) && l.Contains("notes/7", StringComparison.Ordinal));
    }

    [BrowserFact]
    public async Task Databases_AreCreatedAndDeleted_AfterTypingTheName()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture, createDatabase: false);
        studio.ExpectHttpErrors(409);
        string name = "made-" + Guid.NewGuid().ToString("N")[..8];
        await studio.OpenAsync("#/databases");

        await studio.Page.Locator("#new-database").FillAsync(name);
        await studio.Page.Locator("#create-database").ClickAsync();
        ILocator row = studio.Page.Locator($"#database-list tr[data-database='{name}']");
        await Expect(studio.Page.Locator("#database-status")).ToContainTextAsync($"Created {name}");
        await Expect(row).ToContainTextAsync("0");
        await Expect(studio.Page.Locator("#database")).ToHaveValueAsync(name);

        await studio.Page.Locator("#new-database").FillAsync(name);
        await studio.Page.Locator("#create-database").ClickAsync();
        await Expect(studio.Page.Locator("#database-status .error-box")).ToContainTextAsync("exists");

        await row.GetByRole(AriaRole.Button).ClickAsync();
        ILocator confirm = studio.Page.GetByRole(AriaRole.Dialog).GetByRole(AriaRole.Button, new() { Name = "Delete" });
        await studio.Page.Locator("#confirm-input").FillAsync(name[..^1]);
        await Expect(confirm).ToBeDisabledAsync();
        await studio.Page.Locator("#confirm-input").FillAsync(name);
        await confirm.ClickAsync();
        await Expect(row).ToHaveCountAsync(0);
        var list = await studio.GetJsonAsync("/databases");
        Assert.DoesNotContain(list.GetProperty("Databases").EnumerateArray(), d => d.GetProperty("Name").GetString() == name);
    }
}
