using System.Globalization;
using System.Net;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// A loaded database that has gone quiet for <c>Databases:ReleasePagesAfter</c> no longer keeps its data files' pages
/// resident in the server, stays loaded, and answers its next request with the same documents and query results.
/// </summary>
public sealed class ResidentPagesReleaseTests
{
    [LinuxFact]
    public async Task ReleasePagesAfter_TakesAQuietDatabasesPagesOutOfTheServer_AndItsNextRequestsReadThemBack()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00", "--Databases:ReleasePagesAfter=00:00:00.200");
        string db = await CreateDatabaseAsync(server.Client);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}},{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        for (int i = 0; i < 50; i++)
            await StoreAsync(server.Client, db, $"users/{i}", $$$"""{"Name":"n{{{i}}}","Age":{{{i}}},"@metadata":{"@collection":"Users"}}""");
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByAge' where Age = 3"));
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByName' where Name = 'n7'"));
        DatabaseRegistry registry = server.Server.Services.GetRequiredService<DatabaseRegistry>();
        Assert.True(registry.TryGet(db, out DatabaseEntry? entry));
        Database loaded = entry.Loaded!;

        await WaitUntilAsync(() => ResidentKilobytes(entry.Directory) == 0, () => $"the data files' pages leave the server ({ResidentKilobytes(entry.Directory)} KB resident)");

        Assert.Same(loaded, entry.Loaded);
        JsonElement? document = await LoadAsync(server.Client, db, "users/7");
        Assert.Equal("n7", document!.Value.GetProperty("Name").GetString());
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByAge' where Age = 3"));
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByName' where Name = 'n7'"));

        // Used again, so released again once quiet; writes and indexing after a release find every page as it was.
        await WaitUntilAsync(() => ResidentKilobytes(entry.Directory) == 0, () => $"the pages leave again ({ResidentKilobytes(entry.Directory)} KB resident)");
        await StoreAsync(server.Client, db, "users/50", """{"Name":"n50","Age":50,"@metadata":{"@collection":"Users"}}""");
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByAge' where Age = 50"));
        Assert.Equal(51, await CountAsync(server.Client, db, "from Users"));
        Assert.Same(loaded, entry.Loaded);
    }

    [LinuxFact]
    public async Task Open_LeavesNoIndexPageResident_UntilAQueryReadsTheIndex()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00", "--Databases:ReleasePagesAfter=00:00:00");
        string db = await CreateDatabaseAsync(server.Client);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        for (int i = 0; i < 20; i++)
            await StoreAsync(server.Client, db, $"users/{i}", $$$"""{"Name":"n{{{i}}}","Age":{{{i}}},"@metadata":{"@collection":"Users"}}""");
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByAge' where Age = 3"));
        DatabaseRegistry registry = server.Server.Services.GetRequiredService<DatabaseRegistry>();
        Assert.True(registry.TryGet(db, out DatabaseEntry? entry));
        string indexes = Path.Combine(entry.Directory, DatabaseRegistry.IndexesFolder);
        await WaitUntilAsync(() => registry.TryUnload(db), () => "the database unloads");
        // Closing applied every commit to the data files, so the reopened indexes read all of their pages from them.
        await entry.Unloaded.WaitAsync(TestTimeouts.Default);

        JsonElement? document = await LoadAsync(server.Client, db, "users/7");

        Assert.Equal("n7", document!.Value.GetProperty("Name").GetString());
        Assert.Equal(0, ResidentKilobytes(indexes));
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Users/ByAge' where Age = 3"));
        Assert.True(ResidentKilobytes(indexes) > 0, "the query maps the index's pages back");
    }

    private static async Task<int> CountAsync(HttpClient client, string db, string query)
    {
        using HttpResponseMessage response = await client.PostAsync($"/databases/{db}/queries",
            FolioApi.Json(JsonSerializer.Serialize(new { Query = query, WaitForNonStaleResults = true })));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using JsonDocument body = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        return body.RootElement.GetProperty("Results").GetArrayLength();
    }

    /// <summary>Resident kilobytes of the data files mapped from under <paramref name="directory"/> in this process.</summary>
    private static long ResidentKilobytes(string directory)
    {
        string prefix = Path.GetFullPath(directory) + Path.DirectorySeparatorChar;
        long total = 0;
        bool inside = false;
        foreach (string line in File.ReadLines("/proc/self/smaps"))
        {
            int space = line.IndexOf(' ', StringComparison.Ordinal);
            if (space > 0 && line.IndexOf('-', 0, space) > 0 && !line.EndsWith(" kB", StringComparison.Ordinal))
                inside = line.Contains(" " + prefix, StringComparison.Ordinal) && line.EndsWith("data.folio", StringComparison.Ordinal);
            else if (inside && line.StartsWith("Rss:", StringComparison.Ordinal))
                total += long.Parse(line.AsSpan(4).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture);
        }

        return total;
    }

    private static async Task WaitUntilAsync(Func<bool> condition, Func<string> what)
    {
        using var deadline = new CancellationTokenSource(TestTimeouts.Default);
        while (!condition())
        {
            if (deadline.IsCancellationRequested)
                throw new TimeoutException($"Timed out waiting until {what()}.");
            await Task.Delay(20, CancellationToken.None);
        }
    }
}
