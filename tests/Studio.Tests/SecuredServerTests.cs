using System.Text;
using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

/// <summary>The studio against a server with <c>Security:Authentication=Required</c> and real API keys.</summary>
[Collection(StudioCollection.Name)]
public sealed class SecuredServerTests(StudioFixture fixture)
{
    [BrowserFact]
    public async Task Studio_AsksForAKey_AndWorksWithIt_OnASecuredServer()
    {
        await using SecuredStudioServer server = await SecuredStudioServer.StartAsync();
        await using StudioSession studio = await StudioSession.StartAsync(fixture.Browser, server.Address, server.Admin);
        await studio.InsertAsync([("notes/1", """{"Text":"secret note","@metadata":{"@collection":"Notes"}}""")]);
        string key = await server.CreateKeyAsync("editor", "ReadWrite", studio.Database);
        studio.ExpectHttpErrors(401);

        await studio.Page.GotoAsync("/studio/#/documents");
        ILocator dialog = studio.Page.Locator("#api-key-dialog");
        await Expect(dialog).ToContainTextAsync("This server requires credentials");
        await Expect(studio.Page.Locator("#api-key-input")).ToBeFocusedAsync();
        await studio.Page.Locator("#api-key-input").FillAsync(key);
        await studio.Page.Keyboard.PressAsync("Enter");

        await Expect(dialog).ToHaveCountAsync(0);
        await Expect(studio.Page.Locator("#database")).ToHaveValueAsync(studio.Database);
        await Expect(studio.Page.Locator("#collections button", new() { HasText = "Notes" })).ToContainTextAsync("1");
        await Expect(studio.Page.Locator("#api-key-button")).ToHaveTextAsync("API key (set)");
        Assert.Equal(key, await studio.Page.EvaluateAsync<string>("() => sessionStorage.getItem('folio.apiKey')"));
        Assert.Null(await studio.Page.EvaluateAsync<string?>("() => localStorage.getItem('folio.apiKey')"));

        // The bulk insert goes through XMLHttpRequest, not fetch: it carries the key too.
        await studio.OpenAsync("#/import");
        await studio.Page.Locator("#import-file").SetInputFilesAsync(new FilePayload { Name = "more.ndjson", MimeType = "application/x-ndjson", Buffer = Encoding.UTF8.GetBytes("{\"Id\":\"notes/2\",\"Text\":\"second\"}\n") });
        await studio.Page.Locator("#import-collection").FillAsync("Notes");
        await studio.Page.Locator("#import-start").ClickAsync();
        await Expect(studio.Page.Locator("#import-status [data-done='true']")).ToContainTextAsync("Imported 1 document");
        var stored = await studio.GetJsonAsync($"/databases/{studio.Database}/docs?id=notes/2");
        Assert.Equal("second", stored.GetProperty("Results")[0].GetProperty("Text").GetString());

        // The key lasts for the tab's session: a reload goes straight to the data.
        await studio.Page.ReloadAsync();
        await studio.OpenAsync("#/documents");
        await Expect(studio.Page.Locator("#collections button", new() { HasText = "Notes" })).ToContainTextAsync("2");
        await Expect(dialog).ToHaveCountAsync(0);
    }

    [BrowserFact]
    public async Task Studio_SaysWhyAKeyIsRefused_WhenTheServerAnswers401Or403()
    {
        await using SecuredStudioServer server = await SecuredStudioServer.StartAsync();
        await using StudioSession studio = await StudioSession.StartAsync(fixture.Browser, server.Address, server.Admin);
        string reader = await server.CreateKeyAsync("reader", "Read", studio.Database);
        studio.ExpectHttpErrors(401, 403);
        await studio.Page.AddInitScriptAsync("sessionStorage.setItem('folio.apiKey', 'folio.nosuchkey.AAAAAAAAAAAAAAAAAAAAAAAA')");

        await studio.Page.GotoAsync("/studio/#/documents");
        ILocator dialog = studio.Page.Locator("#api-key-dialog");
        await Expect(dialog).ToContainTextAsync("The server refused the API key");
        await Expect(studio.Page.Locator("#api-key-forget")).ToBeVisibleAsync();
        await studio.Page.Locator("#api-key-input").FillAsync(reader);
        await dialog.Locator("button[type='submit']").ClickAsync();
        await Expect(studio.Page.Locator("#database")).ToHaveValueAsync(studio.Database);

        // The dashboard's server figures need Admin: the dialog names the clearance the key has and the one needed.
        await studio.Page.Locator("#nav a[data-view='dashboard']").ClickAsync();
        await Expect(dialog.Locator("h2")).ToHaveTextAsync("Not allowed");
        await Expect(dialog).ToContainTextAsync("'reader' has Read on " + studio.Database);
        await Expect(dialog).ToContainTextAsync("needs Admin");
        await dialog.Locator("button", new() { HasText = "Cancel" }).ClickAsync();
        await Expect(dialog).ToHaveCountAsync(0);
        // Closed, it stays closed while the dashboard keeps polling with the same key.
        await studio.Page.WaitForResponseAsync(r => r.Url.EndsWith("/admin/stats", StringComparison.Ordinal) && r.Status == 403);
        await Expect(dialog).ToHaveCountAsync(0);

        await studio.Page.Locator("#api-key-button").ClickAsync();
        await studio.Page.Locator("#api-key-forget").ClickAsync();
        await Expect(studio.Page.Locator("#api-key-button")).ToHaveTextAsync("API key");
        await Expect(dialog).ToContainTextAsync("This server requires credentials");
        Assert.Null(await studio.Page.EvaluateAsync<string?>("() => sessionStorage.getItem('folio.apiKey')"));
    }
}
