using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

/// <summary>
/// Regenerates the README's screenshots of every view, light and dark, at 1280×720:
/// <c>FOLIO_STUDIO_SCREENSHOTS=$PWD/docs/studio dotnet test tests/Studio.Tests --filter FullyQualifiedName~ScreenshotTests</c>.
/// Skipped unless that variable names the folder.
/// </summary>
[Collection(StudioCollection.Name)]
public sealed class ScreenshotTests(StudioFixture fixture)
{
    private static readonly string? s_folder = Environment.GetEnvironmentVariable("FOLIO_STUDIO_SCREENSHOTS");

    [ScreenshotFact]
    public async Task Views_AreCaptured_InLightAndDarkThemes()
    {
        Directory.CreateDirectory(s_folder!);
        string database = await SeedAsync();
        foreach (ColorScheme scheme in new[] { ColorScheme.Light, ColorScheme.Dark })
        {
            string theme = scheme == ColorScheme.Light ? "light" : "dark";
            await using StudioSession studio = await StudioSession.StartAsync(fixture, createDatabase: false, scheme);
            studio.ExpectHttpErrors(400);
            IPage page = studio.Page;
            await page.AddInitScriptAsync($"localStorage.setItem('folio.database', '{database}')");

            await studio.OpenAsync("#/dashboard");
            await Expect(page.Locator("#dashboard-cards .card")).ToHaveCountAsync(6);
        await Expect(page.Locator("#server-cards .card")).ToHaveCountAsync(7);
            // Three polls, so the rate charts have a line to show.
            await page.WaitForFunctionAsync("() => (document.querySelector('#dashboard-cards polyline')?.getAttribute('points') || '').split(' ').length >= 3", null, new() { Timeout = 20_000 });
            await ShootAsync(page, $"dashboard-{theme}");

            await studio.OpenAsync("#/documents?collection=Products");
            await Expect(page.Locator("#documents-grid .grid-row[data-index='0'][data-loaded='true']")).ToBeVisibleAsync();
            await ShootAsync(page, $"documents-{theme}");

            await studio.OpenAsync("#/documents?id=products%2F3");
            await Expect(page.Locator("#json-status")).ToContainTextAsync("Valid JSON");
            await ShootAsync(page, $"editor-{theme}");

            await studio.OpenAsync("#/query");
            await page.Locator("#rql").FillAsync("from Products where Price between 100 and 900\nselect facet(Brand), facet(Price < 300, Price between 300 and 600, Price > 600)");
            await page.Locator("#rql").PressAsync("Control+Enter");
            await Expect(page.Locator("#facet-results")).ToBeVisibleAsync();
            await ShootAsync(page, $"query-facets-{theme}");

            await page.Locator("#rql").FillAsync("from Products group by Brand order by count() as long desc\nselect Brand, count() as Count, sum(Price) as Total");
            await page.Locator("#rql").PressAsync("Control+Enter");
            await Expect(page.Locator("#group-results")).ToBeVisibleAsync();
            await ShootAsync(page, $"query-group-by-{theme}");

            await page.Locator("#rql").FillAsync("from Products whre Price > 100");
            await page.Locator("#rql").PressAsync("Control+Enter");
            await Expect(page.Locator("#query-error-position")).ToBeVisibleAsync();
            await ShootAsync(page, $"query-error-{theme}");

            await studio.OpenAsync("#/indexes");
            await Expect(page.Locator("#index-list td[data-state='UpToDate']").First).ToBeVisibleAsync();
            await ShootAsync(page, $"indexes-{theme}");

            await studio.OpenAsync("#/import");
            await ShootAsync(page, $"import-{theme}");

            await studio.OpenAsync("#/databases");
            await Expect(page.Locator($"#database-list tr[data-database='{database}']")).ToContainTextAsync("2,300");
            await ShootAsync(page, $"databases-{theme}");
        }
    }

    private static Task ShootAsync(IPage page, string name) =>
        page.ScreenshotAsync(new PageScreenshotOptions { Path = Path.Combine(s_folder!, name + ".png"), Animations = ScreenshotAnimations.Disabled });

    private async Task<string> SeedAsync()
    {
        await using StudioSession seed = await StudioSession.StartAsync(fixture);
        string[] brands = ["Acme", "Bolt", "Core", "Dyna", "Echo"];
        string[] categories = ["Tools", "Garden", "Kitchen", "Toys"];
        await seed.InsertAsync(Enumerable.Range(1, 2000).Select(i => ($"products/{i}",
            $$$"""{"Name":"Product {{{i}}}","Brand":"{{{brands[i * 7 % 5]}}}","Category":"{{{categories[i % 4]}}}","Price":{{{i * 37 % 1000}}},"InStock":{{{(i % 3 != 0 ? "true" : "false")}}},"Tags":["t{{{i % 10}}}"],"@metadata":{"@collection":"Products"}}""")));
        await seed.InsertAsync(Enumerable.Range(1, 300).Select(i => ($"orders/{i}",
            $$$"""{"Company":"companies/{{{i % 20}}}","Freight":{{{i % 90}}}.5,"Lines":[{"Product":"products/{{{i}}}","Quantity":{{{i % 5 + 1}}}}],"@metadata":{"@collection":"Orders"}}""")));
        using HttpResponseMessage index = await seed.Client.PutAsync($"/databases/{seed.Database}/indexes", StudioSession.Json(
            """{"Indexes":[{"Name":"Products/Search","Collections":["Products"],"Fields":{"Name":{"Path":"Name","Search":true},"Brand":{"Path":"Brand"},"Price":{"Path":"Price","Type":"Double"}}}]}"""));
        Assert.True(index.IsSuccessStatusCode, await index.Content.ReadAsStringAsync());
        return seed.Database;
    }
}
