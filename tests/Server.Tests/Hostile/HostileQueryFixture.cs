using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Hostile;

/// <summary>The people fixture of the hostile-query tests: 20,000 of them.</summary>
public sealed class HostileQueryFixture : PeopleFixture
{
    public const int Count = 20_000;

    protected override int DocumentCount => Count;
}

/// <summary>
/// One server with a database of <see cref="DocumentCount"/> people (unique names, 100 tags, a number each) indexed twice,
/// by Folio's engine (<c>People/Folio</c>) and by Lucene (<c>People/Lucene</c>), both caught up.
/// </summary>
public abstract class PeopleFixture : IAsyncLifetime
{
    protected abstract int DocumentCount { get; }

    /// <summary>The server's command-line settings.</summary>
    protected virtual string[] ServerArguments => [];

    public static readonly string[] Indexes = ["People/Folio", "People/Lucene"];

    private RunningServer? _server;

    public RunningServer Server => _server ?? throw new InvalidOperationException("The fixture has not started.");

    public string Database { get; private set; } = "";

    public async Task InitializeAsync()
    {
        _server = await RunningServer.StartAsync(ServerArguments);
        var client = _server.Client;
        Database = await FolioApi.CreateDatabaseAsync(client);
        const int batch = 2_000;
        for (var start = 0; start < DocumentCount; start += batch)
        {
            var body = new StringBuilder("""{"Commands":[""");
            for (var i = start; i < Math.Min(start + batch, DocumentCount); i++)
            {
                if (i > start)
                    body.Append(',');
                body.Append($$"""{"Type":"PUT","Id":"people/{{i}}","Document":{"Name":"person-{{i}}","Tag":"t{{i % 100}}","N":{{i}},"@metadata":{"@collection":"People"}""").Append("}}");
            }
            body.Append("]}");
            using var bulk = await client.PostAsync($"/databases/{Database}/bulk_docs", FolioApi.Json(body.ToString()));
            Assert.True(bulk.IsSuccessStatusCode, await bulk.Content.ReadAsStringAsync());
        }
        var definitions = string.Join(',', Indexes.Select(name =>
            $$"""{"Name":"{{name}}","Collections":["People"],"SearchEngine":"{{name[7..]}}","Fields":{"Name":{},"Tag":{},"N":{"Type":"Long"}""" + "}}"));
        using (var put = await client.PutAsync($"/databases/{Database}/indexes", FolioApi.Json($$"""{"Indexes":[{{definitions}}]}""")))
            Assert.True(put.StatusCode == HttpStatusCode.Created, await put.Content.ReadAsStringAsync());
        // Each wait stays under the client's timeout; on a loaded machine indexing may need several.
        foreach (var index in Indexes)
        {
            var body = JsonSerializer.Serialize(new { Query = $"from index '{index}' limit 0", WaitForNonStaleResults = true, WaitForNonStaleResultsTimeout = "00:00:10" });
            var caughtUp = false;
            for (var attempt = 0; attempt < 30 && !caughtUp; attempt++)
            {
                using var wait = await client.PostAsync($"/databases/{Database}/queries", FolioApi.Json(body));
                if (wait.IsSuccessStatusCode)
                {
                    using var answer = JsonDocument.Parse(await wait.Content.ReadAsStringAsync());
                    caughtUp = !answer.RootElement.GetProperty("IsStale").GetBoolean();
                }
            }
            Assert.True(caughtUp, $"{index} did not catch up");
        }
    }

    public async Task DisposeAsync()
    {
        if (_server is not null)
            await _server.DisposeAsync();
    }
}
