using System.Globalization;
using System.Net;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Folio.Storage.Documents;
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

    [LinuxFact]
    public async Task ReleasePagesAfter_KeepsTheDatabasesPages_WhileAChangesListenerIsConnected_AndReleasesThemOnceItLeaves()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00", "--Databases:ReleasePagesAfter=00:00:00.100");
        string db = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, db, "users/1", """{"Name":"Ada"}""");
        DatabaseEntry entry = EntryOf(server, db);
        Database loaded = entry.Loaded!;
        int releases;
        using (var socket = new ClientWebSocket())
        {
            await socket.ConnectAsync(new Uri(server.Server.Address.ToString().Replace("http", "ws", StringComparison.Ordinal) + $"databases/{db}/changes"), CancellationToken.None);
            await socket.SendAsync(Encoding.UTF8.GetBytes("""{"Command":"WatchAllDocuments"}"""), WebSocketMessageType.Text, true, CancellationToken.None);
            Assert.Contains("Confirm", await ReceiveAsync(socket), StringComparison.Ordinal);
            Assert.NotNull(await LoadAsync(server.Client, db, "users/1"));
            releases = loaded.PageReleases;

            Assert.False(loaded.ReleaseResidentPages());
            await WaitForReleaseChecksAsync(server, 2);

            Assert.Equal(releases, loaded.PageReleases);
            Assert.Same(loaded, entry.Loaded);
            await StoreAsync(server.Client, db, "users/2", """{"Name":"Bob"}""");
            Assert.Contains("users/2", await ReceiveAsync(socket), StringComparison.Ordinal);
            await socket.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        }

        await WaitUntilAsync(() => loaded.PageReleases > releases, () => "the pages are released once the listener left");
        Assert.Equal(0, ResidentKilobytes(entry.Directory));
        Assert.Same(loaded, entry.Loaded);
    }

    [LinuxFact]
    public async Task ReleasePagesAfter_KeepsTheDatabasesPages_WhileAnIndexHasDocumentsToProcess_AndReleasesThemOnceItCaughtUp()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00", "--Databases:ReleasePagesAfter=00:00:00.050");
        string db = await CreateDatabaseAsync(server.Client);
        await DatabaseUnloadingTests.BulkAsync(server.Client, db, 10_000);
        using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes",
            FolioApi.Json("""{"Indexes":[{"Name":"Items/ByKey","Collections":["Items"],"Fields":{"Key":{"Path":"Key"},"Pad":{"Path":"Pad"}}}]}""")))
            Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Database loaded = EntryOf(server, db).Loaded!;
        int releases = loaded.PageReleases;
        Assert.False(loaded.ReleaseResidentPages());
        // A database used after this one: once a check has released its pages, that check found this one quiet for
        // longer, so only the pending work can have kept it.
        string marker = await CreateDatabaseAsync(server.Client);
        await StoreAsync(server.Client, marker, "users/1", "{}");
        Database markerDatabase = EntryOf(server, marker).Loaded!;
        int markerReleases = markerDatabase.PageReleases;

        bool checkedWhilePending = false;
        using (var deadline = new CancellationTokenSource(TestTimeouts.Default))
        {
            while (true)
            {
                int seen = loaded.PageReleases;
                bool markerReleased = markerDatabase.PageReleases > markerReleases;
                if (!IsBehind(loaded))
                    break;
                // Still behind now, so behind when the count was read: a release counted by then was made with work pending.
                Assert.Equal(releases, seen);
                checkedWhilePending |= markerReleased;
                if (deadline.IsCancellationRequested)
                    throw new TimeoutException("Timed out waiting until the index caught up.");
                await Task.Delay(20, CancellationToken.None);
            }
        }

        Assert.True(checkedWhilePending, "a release check ran while the index was behind");
        await WaitUntilAsync(() => loaded.PageReleases > releases, () => "the pages are released once the index caught up");
        Assert.Equal(1, await CountAsync(server.Client, db, "from index 'Items/ByKey' where Key = 'k-7'"));
    }

    private static DatabaseEntry EntryOf(RunningServer server, string db)
    {
        Assert.True(server.Server.Services.GetRequiredService<DatabaseRegistry>().TryGet(db, out DatabaseEntry? entry));
        return entry;
    }

    private static bool IsBehind(Database database)
    {
        using DocumentReader reader = database.Store.OpenReader();
        return database.Indexes.All[0].IsStale(reader);
    }

    /// <summary>Waits until the server's page-release check has released <paramref name="checks"/> databases used one after another, each after the calling test's.</summary>
    private static async Task WaitForReleaseChecksAsync(RunningServer server, int checks)
    {
        for (int i = 0; i < checks; i++)
        {
            string marker = await CreateDatabaseAsync(server.Client);
            await StoreAsync(server.Client, marker, "users/1", "{}");
            Database database = EntryOf(server, marker).Loaded!;
            await WaitUntilAsync(() => database.PageReleases > 0, () => $"the check releases {marker}");
        }
    }

    private static async Task<string> ReceiveAsync(ClientWebSocket socket)
    {
        byte[] buffer = new byte[16 * 1024];
        WebSocketReceiveResult received = await socket.ReceiveAsync(buffer, CancellationToken.None).WaitAsync(TestTimeouts.Default);
        return Encoding.UTF8.GetString(buffer, 0, received.Count);
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
