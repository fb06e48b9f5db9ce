using Deque.AxeCore.Commons;
using Deque.AxeCore.Playwright;
using Folio.Studio.Tests.Support;
using Microsoft.Playwright;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

/// <summary>
/// Every view checked by axe-core (shipped inside the Deque.AxeCore.Playwright package) against WCAG 2
/// A and AA, in both themes: labels, roles, names and colour contrast.
/// </summary>
[Collection(StudioCollection.Name)]
public sealed class AccessibilityTests(StudioFixture fixture)
{
    [BrowserFact]
    public async Task Views_HaveNoWcagViolations_InLightTheme() => await CheckViewsAsync(ColorScheme.Light);

    [BrowserFact]
    public async Task Views_HaveNoWcagViolations_InDarkTheme() => await CheckViewsAsync(ColorScheme.Dark);

    private async Task CheckViewsAsync(ColorScheme scheme)
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture, colorScheme: scheme);
        await studio.InsertAsync(Enumerable.Range(1, 30).Select(i => ($"products/{i}", $$$"""{"Name":"Product {{{i}}}","Brand":"B{{{i % 3}}}","Price":{{{i * 10}}},"@metadata":{"@collection":"Products"}}""")));
        IPage page = studio.Page;
        var violations = new List<string>();

        await studio.OpenAsync("#/documents?collection=Products");
        await Expect(page.Locator("#documents-grid .grid-row[data-loaded='true']").First).ToBeVisibleAsync();
        await AuditAsync(page, "documents", violations);

        await studio.OpenAsync("#/documents?id=products%2F1");
        await Expect(page.Locator("#json-status")).ToContainTextAsync("Valid JSON");
        await AuditAsync(page, "editor", violations);

        await studio.OpenAsync("#/query");
        await page.Locator("#rql").FillAsync("from Products select facet(Brand)");
        await page.Locator("#rql").PressAsync("Control+Enter");
        await Expect(page.Locator("#facet-results")).ToBeVisibleAsync();
        await AuditAsync(page, "query", violations);

        await page.Locator("#rql").FillAsync("from Products where Price > 100");
        await page.Locator("#rql").PressAsync("Control+Enter");
        await Expect(page.Locator("#table-results")).ToBeVisibleAsync();
        await AuditAsync(page, "query results", violations);

        await studio.OpenAsync("#/indexes");
        await Expect(page.Locator("#index-list table")).ToBeVisibleAsync();
        await AuditAsync(page, "indexes", violations);

        await studio.OpenAsync("#/indexes?edit=");
        await AuditAsync(page, "index editor", violations);

        await studio.OpenAsync("#/import");
        await AuditAsync(page, "import", violations);

        await studio.OpenAsync("#/dashboard");
        await Expect(page.Locator("#dashboard-cards .card")).ToHaveCountAsync(6);
        await Expect(page.Locator("#server-cards .card")).ToHaveCountAsync(7);
        await AuditAsync(page, "dashboard", violations);

        await studio.OpenAsync("#/databases");
        await Expect(page.Locator("#database-list table")).ToBeVisibleAsync();
        await AuditAsync(page, "databases", violations);

        Assert.True(violations.Count == 0, string.Join(Environment.NewLine, violations));
    }

    private static async Task AuditAsync(IPage page, string view, List<string> violations)
    {
        AxeResult result = await page.RunAxe(new AxeRunOptions
        {
            RunOnly = new RunOnlyOptions { Type = "tag", Values = ["wcag2a", "wcag2aa"] },
        });
        foreach (AxeResultItem item in result.Violations)
        {
            foreach (AxeResultNode node in item.Nodes)
                violations.Add($"{view}: {item.Id} ({item.Impact}) {item.Help}: {string.Join(" ", node.Target)} {node.Html}");
        }
    }
}
