using System.Text.Json;
using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class DocumentsViewTests(StudioFixture fixture)
{
    private static IEnumerable<(string, string)> Orders(int count) =>
        Enumerable.Range(1, count).Select(i => ($"orders/{i}", $$$"""{"Company":"companies/{{{i % 7}}}","Freight":{{{i}}}.5,"Lines":[{"Product":"p{{{i}}}"}],"@metadata":{"@collection":"Orders"}}"""));

    [BrowserFact]
    public async Task Grid_ListsCollectionsWithCounts_AndPagesThroughACollection()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Orders(1000));
        await studio.InsertAsync([("employees/1", """{"Name":"Ann","@metadata":{"@collection":"Employees"}}""")]);

        await studio.OpenAsync("#/documents");
        ILocator orders = studio.Page.Locator("#collections button", new() { HasText = "Orders" });
        await Expect(orders).ToContainTextAsync("1,000");
        await Expect(studio.Page.Locator("#collections button", new() { HasText = "Employees" })).ToContainTextAsync("1");
        await orders.ClickAsync();

        ILocator grid = studio.Page.Locator("#documents-grid");
        await Expect(grid.Locator(".grid-row[data-index='0'][data-loaded='true']")).ToContainTextAsync("orders/1");
        await Expect(grid.Locator(".grid-head")).ToContainTextAsync("Freight");
        await Expect(studio.Page.Locator("#grid-status")).ToContainTextAsync("of 1,000");
        // Rows exist only for the view: a thousand documents never make a thousand elements.
        Assert.InRange(await grid.Locator(".grid-row").CountAsync(), 10, 40);

        await grid.FocusAsync();
        await studio.Page.Keyboard.PressAsync("End");
        await Expect(grid.Locator(".grid-row[data-index='999'][data-loaded='true']")).ToContainTextAsync("orders/1000");
        await studio.Page.Keyboard.PressAsync("PageUp");
        await Expect(grid.Locator(".grid-row[data-loaded='false']")).ToHaveCountAsync(0);

        await studio.Page.Keyboard.PressAsync("Enter");
        await Expect(studio.Page.Locator("#doc-json")).ToBeVisibleAsync();
    }

    [BrowserFact]
    public async Task Editor_ShowsTheConflict_WhenTheDocumentChangedMeanwhile_AndOverwritesOnlyWhenAsked()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        studio.ExpectHttpErrors(409);
        await studio.InsertAsync([("orders/1", """{"Company":"companies/1","Freight":1,"@metadata":{"@collection":"Orders"}}""")]);

        await studio.OpenAsync("#/documents?id=orders%2F1");
        ILocator editor = studio.Page.Locator("#doc-json");
        await Expect(editor).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("companies/1"));
        await Expect(studio.Page.Locator("#doc-metadata")).ToContainTextAsync("Orders");

        await editor.FillAsync("{\n  \"Company\": \"companies/2\",\n  \"Freight\": 2,\n}");
        await Expect(studio.Page.Locator("#json-error")).ToContainTextAsync("Line 4, column 1");
        await Expect(studio.Page.Locator("#doc-save")).ToBeDisabledAsync();
        await editor.FillAsync("{\n  \"Company\": \"companies/2\",\n  \"Freight\": 2\n}");
        await Expect(studio.Page.Locator("#json-status")).ToContainTextAsync("Valid JSON");

        // Someone else saves first.
        using (var other = new HttpRequestMessage(HttpMethod.Put, $"/databases/{studio.Database}/docs?id=orders/1") { Content = StudioSession.Json("""{"Company":"companies/9","Freight":9,"@metadata":{"@collection":"Orders"}}""") })
            Assert.True((await studio.Client.SendAsync(other)).IsSuccessStatusCode);

        await studio.Page.Locator("#doc-save").ClickAsync();
        await Expect(studio.Page.Locator("#conflict-title")).ToBeVisibleAsync();
        await Expect(studio.Page.Locator("#conflict-theirs")).ToContainTextAsync("companies/9");
        await Expect(studio.Page.Locator("#conflict-mine")).ToContainTextAsync("companies/2");
        Assert.Equal("companies/9", await CompanyOfAsync(studio));

        await studio.Page.Locator("#conflict-overwrite").ClickAsync();
        await Expect(studio.Page.Locator("#doc-metadata")).ToContainTextAsync("A:3-");
        Assert.Equal("companies/2", await CompanyOfAsync(studio));
    }

    [BrowserFact]
    public async Task Editor_KeepsAnUnsavedEdit_AcrossAReload()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync([("orders/1", """{"Company":"companies/1","@metadata":{"@collection":"Orders"}}""")]);
        await studio.OpenAsync("#/documents?id=orders%2F1");
        ILocator editor = studio.Page.Locator("#doc-json");
        await Expect(editor).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("companies/1"));

        await editor.FillAsync("{\n  \"Company\": \"companies/draft\"\n}");
        await studio.Page.WaitForFunctionAsync("() => Object.keys(localStorage).some(k => k.startsWith('folio.draft:') && localStorage.getItem(k).includes('companies/draft'))");
        await studio.Page.ReloadAsync();

        await Expect(studio.Page.Locator("#doc-json")).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("companies/draft"));
        await Expect(studio.Page.Locator("#draft-notice")).ToContainTextAsync("Restored your unsaved draft");
        Assert.Equal("companies/1", await CompanyOfAsync(studio));
    }

    [BrowserFact]
    public async Task Editor_CreatesClonesAndDeletesDocuments()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync([("orders/1", """{"Company":"companies/1","@metadata":{"@collection":"Orders"}}""")]);
        await studio.OpenAsync("#/documents?collection=Orders");

        await studio.Page.GetByRole(AriaRole.Button, new() { Name = "New document" }).ClickAsync();
        await studio.Page.Locator("#doc-id").FillAsync("orders/new");
        await studio.Page.Locator("#doc-json").FillAsync("{\"Company\":\"companies/new\"}");
        await studio.Page.Locator("#doc-save").ClickAsync();
        await Expect(studio.Page.Locator("#doc-metadata")).ToContainTextAsync("orders/new");
        Assert.Equal("companies/new", await CompanyOfAsync(studio, "orders/new"));

        await studio.Page.Locator("#doc-clone").ClickAsync();
        await Expect(studio.Page.Locator("#doc-json")).ToHaveValueAsync(new System.Text.RegularExpressions.Regex("companies/new"));
        await studio.Page.Locator("#doc-save").ClickAsync();
        await Expect(studio.Page.Locator("#doc-metadata")).ToContainTextAsync("@change-vector");
        JsonElement stats = await studio.GetJsonAsync($"/databases/{studio.Database}/collections/stats");
        Assert.Equal(3, stats.GetProperty("Collections").GetProperty("Orders").GetInt32());

        await studio.OpenAsync("#/documents?id=orders%2Fnew");
        await studio.Page.Locator("#doc-delete").ClickAsync();
        await studio.Page.Locator("#doc-delete").ClickAsync();
        await Expect(studio.Page.Locator("#documents-grid")).ToBeVisibleAsync();
        Assert.Null(await CompanyOfAsync(studio, "orders/new"));
    }

    private static async Task<string?> CompanyOfAsync(StudioSession studio, string id = "orders/1")
    {
        using HttpResponseMessage response = await studio.Client.GetAsync($"/databases/{studio.Database}/docs?id={Uri.EscapeDataString(id)}");
        if (response.StatusCode == System.Net.HttpStatusCode.NotFound)
            return null;
        using JsonDocument body = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return body.RootElement.GetProperty("Results")[0].GetProperty("Company").GetString();
    }
}
