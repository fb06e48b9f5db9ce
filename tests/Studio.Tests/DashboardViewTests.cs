using System.Text.RegularExpressions;
using Folio.Studio.Tests.Support;
using static Microsoft.Playwright.Assertions;

namespace Folio.Studio.Tests;

[Collection(StudioCollection.Name)]
public sealed partial class DashboardViewTests(StudioFixture fixture)
{
    [BrowserFact]
    public async Task Dashboard_ShowsServerFigures_FromTheStatsEndpoint()
    {
        await using StudioSession studio = await StudioSession.StartAsync(fixture);
        await studio.OpenAsync("#/dashboard");

        var server = studio.Page.Locator("#server-cards");
        await Expect(server.Locator(".card")).ToHaveCountAsync(7);
        await Expect(studio.Page.Locator("#dashboard-cards .card")).ToHaveCountAsync(6);
        // The studio's own requests are the server's traffic: the count since the start grows past zero.
        await Expect(server.Locator("[aria-label='Requests/s']")).ToContainTextAsync(SinceStart(), new() { Timeout = 20_000 });
        await Expect(server.Locator("[aria-label='p99 latency'] .value")).ToHaveTextAsync(Milliseconds());
        await Expect(server.Locator("[aria-label='Memory'] .value")).ToHaveTextAsync(Bytes());
        await Expect(server.Locator("[aria-label='Disk']")).ToContainTextAsync("free of");
        await Expect(server.Locator("[aria-label='Requests/s'] svg")).ToHaveCountAsync(1);
    }

    [GeneratedRegex(@"[1-9][\d,]* since start")]
    private static partial Regex SinceStart();

    [GeneratedRegex(@"^[\d.,]+ ms$")]
    private static partial Regex Milliseconds();

    [GeneratedRegex(@"^[\d.,]+ (KB|MB|GB)$")]
    private static partial Regex Bytes();
}
