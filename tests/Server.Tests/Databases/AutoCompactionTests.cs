using System.Diagnostics;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Tests.Support;
using Folio.Server.Tests.Wire;
using Microsoft.Extensions.DependencyInjection;
using Serilog.Events;
using static Folio.Server.Tests.Databases.CompactionRouteTests;
using static Folio.Server.Tests.Support.FolioApi;

namespace Folio.Server.Tests.Databases;

/// <summary>
/// The server compacting a database on its own once it has gone quiet (<c>Databases:CompactWhenQuietFor</c>), on a real
/// server and real files. Each test writes its data with the automatic compaction off and restarts the server with it on:
/// a loaded machine can pause between two of a test's batches for longer than a short quiet time, and the server would
/// rightly weigh the database in between.
/// </summary>
public sealed class AutoCompactionTests
{
    private const string Off = "--Databases:CompactWhenQuietFor=00:00:00";
    private const string Soon = "--Databases:CompactWhenQuietFor=00:00:00.300";
    private const string AnySize = "--Databases:CompactMinBytes=0";
    private const string EstimatedTemplate = "Compaction of {Database} estimated";

    [Fact]
    public async Task QuietDatabase_IsCompactedByTheServer_AfterHalfItsDocumentsAreDeleted_AndNotWeighedAgainWithoutWrites()
    {
        await using RunningServer first = await RunningServer.StartAsync(Off);
        string db = await SeedHalfDeletedThenStopAsync(first);

        JsonElement stats;
        await using (RunningServer second = await RunningServer.StartOnAsync(first.DataDir, Soon, AnySize))
        {
            stats = await WaitForStatsAsync(second.Client, db, s => s.GetProperty("LastCompaction").ValueKind == JsonValueKind.Object, "a compaction");

            Assert.Equal(2_000, stats.GetProperty("CountOfDocuments").GetInt64());
            JsonElement last = stats.GetProperty("LastCompaction");
            Assert.True(last.GetProperty("SizeAfter").GetInt64() < last.GetProperty("SizeBefore").GetInt64(), last.ToString());
            Assert.True(stats.GetProperty("CompactionEstimate").GetProperty("ReclaimableShare").GetDouble() >= 0.3, stats.ToString());
            Assert.NotNull(await LoadAsync(second.Client, db, "orders/1"));
            Assert.NotNull(await LoadAsync(second.Client, db, "orders/3999"));
            Assert.Null(await LoadAsync(second.Client, db, "orders/2"));
            LogEvent estimated = Assert.Single(second.Log.Events, e => e.MessageTemplate.Text.StartsWith(EstimatedTemplate, StringComparison.Ordinal));
            Assert.Equal("True", estimated.Properties["Compacting"].ToString());
            // The stats with an estimate and a completed compaction, against their documented schema.
            await new WireClient(second.Client, WireContract.Embedded).GetAsync("/databases/{db}/stats", $"/databases/{db}/stats");
            JsonElement operation = await GetJsonAsync(second.Client, $"/databases/{db}/operations/state?id=1");
            Assert.Equal("Compaction", operation.GetProperty("Kind").GetString());
            Assert.Equal("Completed", operation.GetProperty("Status").GetString());
        }

        // Weighed at this etag already: opened again with no write since, the database is not due to be read whole again.
        // The server's own check is off here, so the test is the only caller, as the check would be.
        await using RunningServer third = await RunningServer.StartOnAsync(first.DataDir, Off);
        Assert.NotNull(await LoadAsync(third.Client, db, "orders/3"));
        Assert.True(third.Server.Services.GetRequiredService<DatabaseRegistry>().TryGet(db, out DatabaseEntry? entry));
        Database reopened = entry.Loaded!;
        Assert.False(reopened.DueForCompactionEstimate(TimeSpan.Zero, 0, Stopwatch.GetTimestamp()));
        Assert.False(reopened.DueForCompactionEstimate(TimeSpan.Zero, 0, Stopwatch.GetTimestamp()));
        JsonElement restored = (await GetJsonAsync(third.Client, $"/databases/{db}/stats")).GetProperty("CompactionEstimate");
        Assert.Equal(stats.GetProperty("CompactionEstimate").ToString(), restored.ToString());
    }

    [Fact]
    public async Task QuietDatabase_IsLeftAsItIs_WhenACompactionWouldGiveBackTooLittle()
    {
        // Without compression: the first bodies a collection writes wait for its dictionary, and a copy would compress them.
        await using RunningServer first = await RunningServer.StartAsync(Off, "--DocumentsCompression=false");
        string db = await CreateDatabaseAsync(first.Client);
        await SeedAsync(first.Client, db, 4_000);
        await first.StopAsync();

        await using RunningServer server = await RunningServer.StartOnAsync(first.DataDir, Soon, AnySize, "--DocumentsCompression=false");
        JsonElement stats = await WaitForStatsAsync(server.Client, db, s => s.GetProperty("CompactionEstimate").ValueKind == JsonValueKind.Object, "an estimate");
        await WaitForAsync(() => server.Log.Events.Any(e => e.MessageTemplate.Text.StartsWith(EstimatedTemplate, StringComparison.Ordinal)), "the estimate's log line");

        Assert.True(stats.GetProperty("CompactionEstimate").GetProperty("ReclaimableShare").GetDouble() < 0.1, stats.ToString());
        LogEvent estimated = Assert.Single(server.Log.Events, e => e.MessageTemplate.Text.StartsWith(EstimatedTemplate, StringComparison.Ordinal));
        Assert.Equal("False", estimated.Properties["Compacting"].ToString());
        Assert.Equal(JsonValueKind.Null, (await GetJsonAsync(server.Client, $"/databases/{db}/stats")).GetProperty("LastCompaction").ValueKind);
    }

    [Fact]
    public async Task QuietDatabase_IsCompacted_ForBodiesItsDictionaryWouldCompress_WhateverShareIsAskedOfFreeSpace()
    {
        // A collection's first bodies are compressed without a dictionary until one is trained on them.
        await using RunningServer first = await RunningServer.StartAsync(Off);
        string db = await CreateDatabaseAsync(first.Client);
        await SeedAsync(first.Client, db, 4_000);
        // Trained in the background once 2,000 bodies were sampled: a stop before it ends leaves no dictionary, and a
        // quiet database has nothing to recompress with (nor writes to sample again).
        JsonElement before = await WaitForCollectionAsync(first.Client, db, c => c.GetProperty("DictionaryVersion").GetInt64() > 0, "a trained dictionary");
        await first.StopAsync();

        await using RunningServer server = await RunningServer.StartOnAsync(first.DataDir, Soon, AnySize, "--Databases:CompactMinShare=1");
        JsonElement stats = await WaitForStatsAsync(server.Client, db, s => s.GetProperty("LastCompaction").ValueKind == JsonValueKind.Object, "a compaction");

        JsonElement estimate = stats.GetProperty("CompactionEstimate");
        Assert.True(estimate.GetProperty("RecompressionBytes").GetInt64() > 0, estimate.ToString());
        Assert.True(estimate.GetProperty("RecompressibleDocuments").GetInt64() > 0, estimate.ToString());
        Assert.True(estimate.GetProperty("ReclaimableShare").GetDouble() < 1, estimate.ToString());
        JsonElement after = Assert.Single((await GetJsonAsync(server.Client, $"/databases/{db}/storage")).GetProperty("Collections").EnumerateArray());
        Assert.Equal(4_000, after.GetProperty("CompressedDocuments").GetInt64());
        Assert.True(after.GetProperty("StoredBytes").GetInt64() < before.GetProperty("StoredBytes").GetInt64(), after.ToString());
        Assert.NotNull(await LoadAsync(server.Client, db, "orders/1"));
    }

    [Fact]
    public async Task Database_IsNotCompacted_WhileWritesGoOn_AndIsOnceTheyStop()
    {
        await using RunningServer first = await RunningServer.StartAsync(Off);
        string db = await SeedHalfDeletedThenStopAsync(first);

        await using RunningServer server = await RunningServer.StartOnAsync(first.DataDir, "--Databases:CompactWhenQuietFor=00:00:03", AnySize);
        // A write every 100 ms for three quiet periods: the database never goes a whole period without one.
        var writing = Stopwatch.StartNew();
        for (int i = 0; writing.Elapsed < TimeSpan.FromSeconds(9); i++)
        {
            await StoreAsync(server.Client, db, $"ticks/{i}", """{"Tick":1}""");
            await Task.Delay(100);
        }
        JsonElement during = await GetJsonAsync(server.Client, $"/databases/{db}/stats");

        Assert.Equal(JsonValueKind.Null, during.GetProperty("CompactionEstimate").ValueKind);
        Assert.Equal(JsonValueKind.Null, during.GetProperty("LastCompaction").ValueKind);
        await WaitForStatsAsync(server.Client, db, s => s.GetProperty("LastCompaction").ValueKind == JsonValueKind.Object, "a compaction once the writes stopped");
    }

    [Fact]
    public void Validate_RefusesCompactionSettings_OutOfRange()
    {
        var errors = new DatabasesOptions { CompactWhenQuietFor = TimeSpan.FromSeconds(-1), CompactMinShare = 0, CompactMinBytes = -1 }.Validate();

        Assert.Contains(errors, e => e.StartsWith("Databases:CompactWhenQuietFor", StringComparison.Ordinal));
        Assert.Contains(errors, e => e.StartsWith("Databases:CompactMinShare", StringComparison.Ordinal));
        Assert.Contains(errors, e => e.StartsWith("Databases:CompactMinBytes", StringComparison.Ordinal));
        Assert.Empty(new DatabasesOptions().Validate());
        Assert.Contains(new DatabasesOptions { CompactMinShare = 1.5 }.Validate(), e => e.StartsWith("Databases:CompactMinShare", StringComparison.Ordinal));
    }

    /// <summary>Writes 4,000 documents and deletes every other one through <paramref name="server"/>, then stops it; returns the database.</summary>
    private static async Task<string> SeedHalfDeletedThenStopAsync(RunningServer server)
    {
        string db = await CreateDatabaseAsync(server.Client);
        await SeedAsync(server.Client, db, 4_000);
        await DeleteEvenAsync(server.Client, db, 4_000);
        await server.StopAsync();
        return db;
    }

    private static Task<JsonElement> WaitForStatsAsync(HttpClient client, string db, Func<JsonElement, bool> done, string what) =>
        WaitForJsonAsync(() => GetJsonAsync(client, $"/databases/{db}/stats"), done, what);

    private static Task<JsonElement> WaitForCollectionAsync(HttpClient client, string db, Func<JsonElement, bool> done, string what) =>
        WaitForJsonAsync(async () => Assert.Single((await GetJsonAsync(client, $"/databases/{db}/storage")).GetProperty("Collections").EnumerateArray()), done, what);

    private static async Task<JsonElement> WaitForJsonAsync(Func<Task<JsonElement>> read, Func<JsonElement, bool> done, string what)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            JsonElement json = await read();
            if (done(json))
                return json;
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(60), $"no {what} within 60 s: {json}");
            await Task.Delay(50);
        }
    }

    private static async Task WaitForAsync(Func<bool> done, string what)
    {
        var clock = Stopwatch.StartNew();
        while (!done())
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), $"no {what} within 30 s");
            await Task.Delay(20);
        }
    }
}
