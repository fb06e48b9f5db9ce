using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;
using Folio.Storage.Scheduling;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>Databases and their indexes take no threads of their own: their commits and index batches run on the shared schedulers.</summary>
public sealed class SharedSchedulingTests
{
    [LinuxFact]
    public async Task Databases_WithIndexesWrittenAndQueried_StartNoThreadOfTheirOwn()
    {
        await using RunningServer server = await RunningServer.StartAsync("--Databases:IdleUnloadAfter=00:00:00");
        for (int i = 0; i < 8; i++)
        {
            string db = await CreateDatabaseAsync(server.Client);
            using (HttpResponseMessage put = await server.Client.PutAsync($"/databases/{db}/indexes", FolioApi.Json(
                """{"Indexes":[{"Name":"Users/ByName","Collections":["Users"],"Fields":{"Name":{"Path":"Name"}}},{"Name":"Users/ByAge","Collections":["Users"],"Fields":{"Age":{"Path":"Age","Type":"Long"}}},{"Name":"Users/ByCity","Collections":["Users"],"Fields":{"City":{"Path":"City"}}}]}""")))
                Assert.Equal(HttpStatusCode.Created, put.StatusCode);
            await StoreAsync(server.Client, db, "users/1", """{"Name":"Ada","Age":36,"City":"London","@metadata":{"@collection":"Users"}}""");
            using HttpResponseMessage query = await server.Client.PostAsync($"/databases/{db}/queries",
                FolioApi.Json("""{"Query":"from index 'Users/ByCity' where City = 'London'","WaitForNonStaleResults":true}"""));
            Assert.Equal(HttpStatusCode.OK, query.StatusCode);
            using JsonDocument result = JsonDocument.Parse(await query.Content.ReadAsStringAsync());
            Assert.Equal(1, result.RootElement.GetProperty("TotalResults").GetInt64());
        }

        List<string> names = ThreadNames();
        Assert.DoesNotContain(names, name => name.StartsWith("Folio indexer", StringComparison.Ordinal) || name.StartsWith("Folio transacti", StringComparison.Ordinal));
        Assert.InRange(names.Count(name => name == "Folio backgroun"), 1, WorkScheduler.Background.ThreadCount);
        Assert.InRange(names.Count(name => name == "Folio commits"), 1, WorkScheduler.Commits.ThreadCount);
    }

    /// <summary>The process's threads' names as Linux keeps them: their first 15 bytes.</summary>
    private static List<string> ThreadNames()
    {
        var names = new List<string>();
        foreach (string task in Directory.EnumerateDirectories("/proc/self/task"))
        {
            try
            {
                names.Add(File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n'));
            }
            catch (IOException)
            {
                // The thread ended while the list was read.
            }
        }
        return names;
    }
}
