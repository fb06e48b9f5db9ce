using System.Net;
using System.Text.Json;
using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Durability;

/// <summary>A full disk, for real: a small tmpfs filled by writes, then space freed.</summary>
public sealed class DiskFullTests
{
    private const int TextLength = 100_000;

    [SmallDiskFact]
    public async Task Write_Answers507AndKeepsEverythingCommitted_ThenWorksAgainOnceSpaceIsFreed()
    {
        using SmallDisk disk = SmallDisk.Mount(40);
        string ballast = Path.Combine(disk.Path, "ballast");
        await File.WriteAllBytesAsync(ballast, new byte[8 * 1024 * 1024]);
        string dataDir = Path.Combine(disk.Path, "data");
        var stored = new List<int>();
        string db;
        await using (RunningServer server = await RunningServer.StartOnAsync(dataDir))
        {
            HttpClient client = server.Client;
            db = await FolioApi.CreateDatabaseAsync(client);
            HttpResponseMessage? refused = null;
            for (var n = 0; n < 1000 && refused is null; n++)
            {
                HttpResponseMessage response = await FolioApi.PutAsync(client, db, $"docs/{n}", Document(n));
                if (response.StatusCode == HttpStatusCode.Created)
                {
                    stored.Add(n);
                    response.Dispose();
                }
                else
                {
                    refused = response;
                }
            }

            Assert.NotNull(refused);
            using (refused)
                await ProblemAssert.IsProblemAsync(refused, HttpStatusCode.InsufficientStorage, "urn:folio:problem:insufficient-storage");
            Assert.True(stored.Count > 10, $"only {stored.Count} documents fit before the disk was full");
            await AssertStoredAsync(client, db, stored);
            // A later write may find room again (the background flush can retire a journal), so only a clean answer is asked of it.
            using (HttpResponseMessage again = await FolioApi.PutAsync(client, db, "docs/again", Document(-1)))
            {
                Assert.Contains(again.StatusCode, new[] { HttpStatusCode.InsufficientStorage, HttpStatusCode.Created });
                if (again.StatusCode == HttpStatusCode.Created)
                    Assert.NotNull(await FolioApi.LoadAsync(client, db, "docs/again"));
            }

            File.Delete(ballast);
            int next = stored[^1] + 1;
            using (var timeout = new CancellationTokenSource(TestTimeouts.Default))
            {
                while (true)
                {
                    using HttpResponseMessage response = await FolioApi.PutAsync(client, db, $"docs/{next}", Document(next));
                    if (response.StatusCode == HttpStatusCode.Created)
                        break;
                    Assert.Equal(HttpStatusCode.InsufficientStorage, response.StatusCode);
                    await Task.Delay(50, timeout.Token);
                }
            }

            stored.Add(next);
            using (HttpResponseMessage ready = await client.GetAsync("/healthz/ready"))
                Assert.Equal(HttpStatusCode.OK, ready.StatusCode);
            await AssertStoredAsync(client, db, stored);
        }

        // Opening replays the journal into the data file, which needs room of its own.
        disk.Resize(80);
        await using RunningServer restarted = await RunningServer.StartOnAsync(dataDir);
        await AssertStoredAsync(restarted.Client, db, stored);
    }

    /// <summary>
    /// About 100 KB of text that does not compress: the journal compresses its records, and a run of one letter shrank to
    /// a few hundred bytes, so the disk filled only when a flush happened to write the data file during the loop.
    /// </summary>
    private static string Document(int n)
    {
        var random = new Random(n);
        var text = string.Create(TextLength, random, static (chars, r) =>
        {
            for (var i = 0; i < chars.Length; i++)
                chars[i] = (char)('a' + r.Next(26));
        });
        return JsonSerializer.Serialize(new { N = n, Text = text });
    }

    private static async Task AssertStoredAsync(HttpClient client, string db, List<int> stored)
    {
        foreach (int n in stored)
        {
            JsonElement? document = await FolioApi.LoadAsync(client, db, $"docs/{n}");
            Assert.True(document is not null, $"docs/{n} was committed and is gone");
            Assert.Equal(n, document.Value.GetProperty("N").GetInt32());
            Assert.Equal(TextLength, document.Value.GetProperty("Text").GetString()!.Length);
        }
    }
}
