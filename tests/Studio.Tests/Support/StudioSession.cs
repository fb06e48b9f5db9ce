using System.Net;
using System.Text;
using System.Text.Json;
using Microsoft.Playwright;

namespace Folio.Studio.Tests.Support;

/// <summary>
/// One test's browser context (1280×720) on the studio, with its own database. Every console error and
/// uncaught page error is recorded; <see cref="DisposeAsync"/> fails the test on any, except the
/// "Failed to load resource" lines Chromium logs for HTTP statuses the test said it provokes.
/// </summary>
public sealed class StudioSession : IAsyncDisposable
{
    private readonly List<string> _errors = [];
    private readonly HashSet<int> _expectedStatuses = [];
    private readonly IBrowserContext _context;

    private StudioSession(HttpClient client, IBrowserContext context, IPage page, string database)
    {
        Client = client;
        _context = context;
        Page = page;
        Database = database;
        page.Console += (_, message) =>
        {
            if (message.Type == "error")
                lock (_errors) _errors.Add($"console: {message.Text} ({message.Location})");
        };
        page.PageError += (_, error) => { lock (_errors) _errors.Add($"page error: {error}"); };
    }

    public IPage Page { get; }

    public string Database { get; }

    /// <summary>The client the test sets data up with (on a secured server, one with an admin key).</summary>
    public HttpClient Client { get; }

    /// <summary>Opens a context and page and creates a database for the test (none when <paramref name="createDatabase"/> is false).</summary>
    public static Task<StudioSession> StartAsync(StudioFixture fixture, bool createDatabase = true, ColorScheme colorScheme = ColorScheme.Light) =>
        StartAsync(fixture.Browser, fixture.Address, fixture.Client, createDatabase, colorScheme);

    /// <summary>The same on another server than the fixture's: <paramref name="client"/> creates the database.</summary>
    public static async Task<StudioSession> StartAsync(IBrowser browser, Uri address, HttpClient client, bool createDatabase = true, ColorScheme colorScheme = ColorScheme.Light)
    {
        string database = "studio-" + Guid.NewGuid().ToString("N")[..10];
        if (createDatabase)
        {
            using HttpResponseMessage created = await client.PutAsync("/admin/databases", Json($$"""{"Name":"{{database}}"}"""));
            Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        }

        IBrowserContext context = await browser.NewContextAsync(new BrowserNewContextOptions
        {
            BaseURL = address.ToString(),
            ViewportSize = new ViewportSize { Width = 1280, Height = 720 },
            ColorScheme = colorScheme,
            AcceptDownloads = true,
        });
        context.SetDefaultTimeout(20_000);
        // The studio remembers the chosen database per browser; a new context starts on this test's one.
        await context.AddInitScriptAsync($"if (!localStorage.getItem('folio.database')) localStorage.setItem('folio.database', {JsonSerializer.Serialize(database)});");
        IPage page = await context.NewPageAsync();
        return new StudioSession(client, context, page, database);
    }

    /// <summary>Says the test provokes these HTTP error statuses, so Chromium's network log lines for them are not failures.</summary>
    public void ExpectHttpErrors(params int[] statuses)
    {
        foreach (int status in statuses)
            _expectedStatuses.Add(status);
    }

    /// <summary>Opens a studio route, e.g. <c>#/documents?collection=Orders</c>, and waits for the view to mount.</summary>
    public async Task OpenAsync(string hash)
    {
        await Page.GotoAsync("/studio/" + hash);
        string view = hash.TrimStart('#', '/').Split('?')[0];
        await Page.Locator($"main[data-view='{(view.Length == 0 ? "documents" : view)}']").WaitForAsync();
    }

    /// <summary>Stores documents through bulk_insert: (id, JSON object text with its @metadata).</summary>
    public async Task InsertAsync(IEnumerable<(string Id, string Json)> documents)
    {
        var body = new StringBuilder("[");
        foreach (var (id, json) in documents)
        {
            if (body.Length > 1)
                body.Append(',');
            body.Append("{\"Type\":\"PUT\",\"Id\":").Append(JsonSerializer.Serialize(id)).Append(",\"Document\":").Append(json).Append('}');
        }

        body.Append(']');
        using HttpResponseMessage response = await Client.PostAsync($"/databases/{Database}/bulk_insert", Json(body.ToString()));
        Assert.True(response.StatusCode == HttpStatusCode.Created, await response.Content.ReadAsStringAsync());
    }

    public async Task<JsonElement> GetJsonAsync(string uri)
    {
        using HttpResponseMessage response = await Client.GetAsync(uri);
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"GET {uri} answered {(int)response.StatusCode}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    public async Task<JsonElement> PostJsonAsync(string uri, string json)
    {
        using HttpResponseMessage response = await Client.PostAsync(uri, Json(json));
        string text = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"POST {uri} answered {(int)response.StatusCode}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    public static StringContent Json(string json) => new(json, Encoding.UTF8, "application/json");

    public async ValueTask DisposeAsync()
    {
        await _context.DisposeAsync();
        List<string> unexpected;
        lock (_errors)
            unexpected = _errors.Where(e => !IsExpected(e)).ToList();
        Assert.True(unexpected.Count == 0, "The studio logged errors:" + Environment.NewLine + string.Join(Environment.NewLine, unexpected));
    }

    private bool IsExpected(string error)
    {
        foreach (int status in _expectedStatuses)
        {
            if (error.Contains($"Failed to load resource: the server responded with a status of {status}", StringComparison.Ordinal))
                return true;
        }

        return false;
    }
}
