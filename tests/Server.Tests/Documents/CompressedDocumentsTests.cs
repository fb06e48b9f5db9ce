using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Microsoft.Extensions.DependencyInjection;

namespace Folio.Server.Tests.Documents;

/// <summary>Documents whose bodies the server compresses read back over HTTP exactly as they were sent, before and after a restart.</summary>
public class CompressedDocumentsTests
{
    private static string Order(int n)
    {
        var random = new Random(n);
        return $$$"""{"N":{{{n}}},"Company":"companies/{{{random.Next(1, 500)}}}","Freight":{{{random.Next(1, 30000) / 100.0}}},"ShipTo":{"City":"{{{(random.Next(2) == 0 ? "Lyon" : "Graz")}}}","PostalCode":"{{{random.Next(10000, 99999)}}}"},"Lines":[{"Product":"products/{{{random.Next(1, 77)}}}","Quantity":{{{random.Next(1, 50)}}}}],"Notes":"ring twice, leave with the neighbour","@metadata":{"@collection":"Orders"}}""";
    }

    /// <summary>What the store keeps of <see cref="Order"/>: the client's properties as sent, then the metadata object.</summary>
    private static string SentPart(int n)
    {
        var order = Order(n);
        return order[..order.IndexOf(",\"@metadata\"", StringComparison.Ordinal)] + ",\"@metadata\":{\"@collection\":\"Orders\"";
    }

    private static string Id(int n) => (n % 4) switch
    {
        0 => "orders/" + (n + 100_000).ToString(CultureInfo.InvariantCulture),
        1 => $"orders/{n}-A",
        2 => "orders/" + new Guid(n, 3, 3, 1, 2, 3, 4, 5, 6, 7, 8).ToString(),
        _ => "orders/",
    };

    private static async Task WriteAsync(HttpClient client, string db, int from, int count)
    {
        var commands = new StringBuilder("{\"Commands\":[");
        for (var n = from; n < from + count; n++)
            commands.Append(CultureInfo.InvariantCulture, $$"""{"Type":"PUT","Id":"{{Id(n)}}","Document":{{Order(n)}}},""");
        commands.Length--;
        commands.Append("]}");
        using HttpResponseMessage response = await client.PostAsync($"/databases/{db}/bulk_docs", FolioApi.Json(commands.ToString()));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
    }

    /// <summary>The export's document lines by their order number, each checked to start with what was sent.</summary>
    private static async Task<Dictionary<int, string>> ExportAsync(HttpClient client, string db)
    {
        var lines = new Dictionary<int, string>();
        foreach (string line in (await client.GetStringAsync($"/databases/{db}/export")).Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            using JsonDocument parsed = JsonDocument.Parse(line);
            if (!parsed.RootElement.TryGetProperty("N", out JsonElement number))
                continue;
            int n = number.GetInt32();
            Assert.StartsWith(SentPart(n), line, StringComparison.Ordinal);
            lines.Add(n, line);
        }
        return lines;
    }

    [Fact]
    public async Task Documents_CompressedWithATrainedDictionary_ReadBackByteExact_ByIdExportAndAfterRestart()
    {
        string dataDir = RunningServer.NewDataDir();
        try
        {
            string db;
            Dictionary<int, string> exported;
            await using (RunningServer server = await RunningServer.StartOnAsync(dataDir, "--DocumentsCompression=true"))
            {
                db = await FolioApi.CreateDatabaseAsync(server.Client);
                for (var from = 0; from < 2400; from += 400)
                    await WriteAsync(server.Client, db, from, 400);
                using (DatabaseLease lease = server.Server.Services.GetRequiredService<DatabaseRegistry>().Lease(db))
                {
                    await lease.Database.Store.Compression.WhenTrainingsDoneAsync().WaitAsync(TestTimeouts.Default);
                    Assert.True(lease.Database.Store.Compression.CurrentVersion("Orders") >= 1, "a dictionary should be trained after 2,000 orders");
                }
                await WriteAsync(server.Client, db, 2400, 200);

                exported = await ExportAsync(server.Client, db);
                Assert.Equal(2600, exported.Count);
                foreach (int n in new[] { 4, 5, 6, 2404, 2405, 2406 })
                {
                    string body = await server.Client.GetStringAsync(FolioApi.DocsUri(db, Id(n)));
                    Assert.Contains(exported[n], body, StringComparison.Ordinal);
                }
            }

            await using (RunningServer restarted = await RunningServer.StartOnAsync(dataDir, "--DocumentsCompression=true"))
            {
                Dictionary<int, string> again = await ExportAsync(restarted.Client, db);
                Assert.Equal(exported.Count, again.Count);
                foreach ((int n, string line) in exported)
                    Assert.Equal(line, again[n]);
                string body = await restarted.Client.GetStringAsync(FolioApi.DocsUri(db, Id(2408)));
                Assert.Contains(exported[2408], body, StringComparison.Ordinal);
            }
        }
        finally
        {
            RunningServer.DeleteDirectory(dataDir);
        }
    }
}
