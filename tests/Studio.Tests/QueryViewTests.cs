using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed class QueryViewTests(StudioFixture fixture)
{
    private static readonly string[] s_brands = ["Acme", "Bolt", "Acme", "Core", "Acme", "Bolt"];

    private static async Task<StudioSession> StartWithProductsAsync(StudioFixture fixture)
    {
        StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.InsertAsync(s_brands.Select((brand, i) =>
            ($"products/{i + 1}", $$$"""{"Name":"Product {{{i + 1}}}","Brand":"{{{brand}}}","Price":{{{(i + 1) * 100}}},"@metadata":{"@collection":"Products"}}""")));
        await studio.OpenAsync("#/query");
        return studio;
    }

    private static async Task RunAsync(StudioSession studio, string rql)
    {
        ILocator editor = studio.Page.Locator("#rql");
        await editor.FillAsync(rql);
        await editor.PressAsync("Control+Enter");
    }

    [BrowserFact]
    public async Task Run_ShowsResultsAndStatistics_ForAPlainQuery_AsTableAndRawJson()
    {
        await using StudioSession studio = await StartWithProductsAsync(fixture);

        await RunAsync(studio, "from Products where Price >= 300 order by Price as long");

        await Expect(studio.Page.Locator("#total-results")).ToHaveTextAsync("4");
        await Expect(studio.Page.Locator("#index-used")).ToContainTextAsync("Products");
        await Expect(studio.Page.Locator("#stale-flag")).ToBeVisibleAsync();
        await Expect(studio.Page.Locator("#table-results tbody tr")).ToHaveCountAsync(4);
        await Expect(studio.Page.Locator("#table-results tbody tr").First).ToContainTextAsync("products/3");

        await studio.Page.Locator("#mode-json").ClickAsync();
        await Expect(studio.Page.Locator("#raw-json")).ToContainTextAsync("\"TotalResults\": 4");
        await Expect(studio.Page.Locator("#query-history")).ToContainTextAsync("from Products where Price >= 300");
    }

    [BrowserFact]
    public async Task Run_DrawsFacetsAsBars_AndGroupByAsATable()
    {
        await using StudioSession studio = await StartWithProductsAsync(fixture);

        await RunAsync(studio, "from Products select facet(Brand), facet(Price < 250, Price >= 250)");
        ILocator brand = studio.Page.Locator("section.facet", new() { HasText = "Brand" });
        await Expect(brand.Locator(".facet-row")).ToHaveCountAsync(3);
        await Expect(brand.Locator(".facet-row").First).ToHaveAttributeAsync("aria-label", "Acme: 3");
        await Expect(studio.Page.Locator(".facet-bar")).ToHaveCountAsync(5);

        await RunAsync(studio, "from Products group by Brand order by count() as long desc select Brand, count() as Count");
        await Expect(studio.Page.Locator("#group-results tbody tr")).ToHaveCountAsync(3);
        await Expect(studio.Page.Locator("#group-results thead")).ToContainTextAsync("Count");
        await Expect(studio.Page.Locator("#group-results tbody tr").First).ToContainTextAsync("Acme");
    }

    [BrowserFact]
    public async Task Run_MarksASyntaxError_WhereTheServerPlacesIt()
    {
        await using StudioSession studio = await StartWithProductsAsync(fixture);
        studio.ExpectHttpErrors(400);

        await RunAsync(studio, "from Products whre Price > 1");

        await Expect(studio.Page.Locator(".error-box")).ToContainTextAsync("Invalid query");
        await Expect(studio.Page.Locator("#query-error-position")).ToContainTextAsync("At position 14");
        await Expect(studio.Page.Locator(".editor pre .tok-err")).ToHaveTextAsync("whre");
        Assert.Equal(14, await studio.Page.Locator("#rql").EvaluateAsync<int>("e => e.selectionStart"));
    }

    [BrowserFact]
    public async Task Editor_CompletesCollectionNames()
    {
        await using StudioSession studio = await StartWithProductsAsync(fixture);
        ILocator editor = studio.Page.Locator("#rql");
        await editor.FillAsync("");
        await Expect(studio.Page.Locator("#rql-completions")).ToBeHiddenAsync();

        await editor.PressSequentiallyAsync("from Prod");
        await Expect(studio.Page.Locator("#rql-completions")).ToContainTextAsync("Products");
        await editor.PressAsync("Enter");

        await Expect(editor).ToHaveValueAsync("from Products");
    }
}
