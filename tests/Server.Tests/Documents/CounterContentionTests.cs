using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Documents;

public class CounterContentionTests
{
    private const int Clients = 64;
    private const int IncrementsPerClient = 2;

    [Fact]
    public async Task ConcurrentIfMatchIncrements_LoseNoUpdate()
    {
        await using RunningServer running = await RunningServer.StartAsync();
        string db = await FolioApi.CreateDatabaseAsync(running.Client);
        await FolioApi.StoreAsync(running.Client, db, "counters/1", """{"Count":0}""");
        using var handler = new SocketsHttpHandler { UseProxy = false, MaxConnectionsPerServer = Clients };

        var clients = new Task<(int Successes, int Conflicts)>[Clients];
        for (int c = 0; c < Clients; c++)
        {
            var client = new HttpClient(handler, disposeHandler: false) { BaseAddress = running.Server.Address, Timeout = TestTimeouts.Default };
            clients[c] = IncrementAsync(client, db);
        }

        (int Successes, int Conflicts)[] outcomes = await Task.WhenAll(clients);

        int successes = outcomes.Sum(o => o.Successes);
        JsonElement counter = (await FolioApi.LoadAsync(running.Client, db, "counters/1"))!.Value;
        Assert.Equal(Clients * IncrementsPerClient, successes);
        Assert.Equal(successes, counter.GetProperty("Count").GetInt32());
        // The initial write plus one per successful increment: every 409 wrote nothing.
        Assert.Equal(1 + successes, (await FolioApi.StatsAsync(running.Client, db)).LastDocEtag);
    }

    private static async Task<(int Successes, int Conflicts)> IncrementAsync(HttpClient client, string db)
    {
        using (client)
        {
            int successes = 0;
            int conflicts = 0;
            while (successes < IncrementsPerClient)
            {
                using HttpResponseMessage get = await client.GetAsync(FolioApi.DocsUri(db, "counters/1"));
                Assert.Equal(HttpStatusCode.OK, get.StatusCode);
                string etag = FolioApi.ETagOf(get)!;
                int count = JsonDocument.Parse(await get.Content.ReadAsStringAsync()).RootElement.GetProperty("Results")[0].GetProperty("Count").GetInt32();

                using HttpResponseMessage put = await FolioApi.PutAsync(client, db, "counters/1", $$"""{"Count":{{count + 1}}}""", etag);
                if (put.StatusCode == HttpStatusCode.Created)
                    successes++;
                else if (put.StatusCode == HttpStatusCode.Conflict)
                    conflicts++;
                else
                    Assert.Fail($"An increment answered {(int)put.StatusCode}: {await put.Content.ReadAsStringAsync()}");
            }

            return (successes, conflicts);
        }
    }
}
