using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class IndexesViewTests(StudioFixture fixture)
{
    [BrowserFact]
    public async Task NewIndex_BecomesNonStale_AndIsDeleted_AfterAServerErrorIsShownAtTheField()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        studio.ExpectHttpErrors(400);
        await studio.InsertAsync(Enumerable.Range(1, 200).Select(i => ($"products/{i}", $$$"""{"Category":"c{{{i % 5}}}","PricePerUnit":{{{i}}},"@metadata":{"@collection":"Products"}}""")));
        await studio.OpenAsync("#/indexes");

        await studio.Page.Locator("#new-index").ClickAsync();
        ILocator editor = studio.Page.Locator("#index-json");
        await editor.FillAsync("""{"Name":"Products/ByCategory","Collections":["Products"],"Fields":{"Category":{"Path":"Category","Type":"Nope"}}}""");
        await studio.Page.Locator("#save-index").ClickAsync();
        await Expect(studio.Page.Locator("#index-status")).ToContainTextAsync("Field 'Category' has unknown Type 'Nope'");
        Assert.Equal("""{"Name":"Products/ByCategory","Collections":["Products"],"Fields":{""".Length + 1, await editor.EvaluateAsync<int>("e => e.selectionStart"));

        await editor.FillAsync("""{"Name":"Products/ByCategory","Collections":["Products"],"Fields":{"Category":{"Path":"Category"},"Price":{"Path":"PricePerUnit","Type":"Double"}}}""");
        await studio.Page.Locator("#save-index").ClickAsync();
        ILocator row = studio.Page.Locator("#index-list tr[data-index='Products/ByCategory']");
        await Expect(row.Locator("td[data-state]")).ToHaveAttributeAsync("data-state", "UpToDate", new() { Timeout = 30_000 });
        await Expect(row).ToContainTextAsync("200");

        await row.GetByRole(AriaRole.Button, new() { Name = "Delete Products/ByCategory" }).ClickAsync();
        await studio.Page.Locator("#confirm-input").FillAsync("Products/ByCategory");
        await studio.Page.GetByRole(AriaRole.Dialog).GetByRole(AriaRole.Button, new() { Name = "Delete" }).ClickAsync();
        await Expect(row).ToHaveCountAsync(0);
        var definitions = await studio.GetJsonAsync($"/databases/{studio.Database}/indexes");
        Assert.Equal(0, definitions.GetProperty("Results").GetArrayLength());
    }

    [BrowserFact]
    public async Task NewIndex_RunsOnTheChosenEngine_WithALanguageAnalyzer()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(Enumerable.Range(1, 30).Select(i => ($"products/{i}", $$$"""{"Name":"{{{(i % 2 == 0 ? "les chevaux rapides" : "une table")}}} {{{i}}}","@metadata":{"@collection":"Products"}}""")));
        await studio.OpenAsync("#/indexes?edit=");

        await studio.Page.GetByRole(AriaRole.Button, new() { Name = "Full-text template" }).ClickAsync();
        await Expect(studio.Page.Locator("#index-engine")).ToHaveValueAsync("");
        await studio.Page.GetByRole(AriaRole.Button, new() { Name = "French (Lucene) template" }).ClickAsync();
        await Expect(studio.Page.Locator("#index-engine")).ToHaveValueAsync("Lucene");
        await studio.Page.Locator("#index-engine").SelectOptionAsync("Folio");
        Assert.Contains("\"SearchEngine\": \"Folio\"", await studio.Page.Locator("#index-json").InputValueAsync(), StringComparison.Ordinal);
        await studio.Page.Locator("#index-engine").SelectOptionAsync("Lucene");
        await studio.Page.Locator("#save-index").ClickAsync();

        ILocator row = studio.Page.Locator("#index-list tr[data-index='Products/SearchFrench']");
        await Expect(row.Locator("td[data-engine]")).ToHaveTextAsync("Lucene");
        await Expect(row.Locator("td[data-state]")).ToHaveAttributeAsync("data-state", "UpToDate", new() { Timeout = 30_000 });
        // The French analyzer stems "cheval" and "chevaux" alike, which the English default would not.
        var found = await studio.PostJsonAsync($"/databases/{studio.Database}/queries", """{"Query":"from index 'Products/SearchFrench' where search(Name, 'cheval')"}""");
        Assert.Equal(15, found.GetProperty("TotalResults").GetInt32());
    }
}
