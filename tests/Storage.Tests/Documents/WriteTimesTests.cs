using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// A batch of several documents gives them one last-modified time and keeps it once (<see cref="WriteTimes"/>) instead
/// of in every record; smaller batches and single writes keep theirs inline. Reads, reopens, compactions and rolled back
/// batches must all give each document the time its write returned.
/// </summary>
public class WriteTimesTests
{
    [Fact]
    public async Task Batch_OfSeveralDocuments_SharesOneTimeKeptOnce_AndASmallBatchHoldsItsOwn()
    {
        using var directory = new TempDirectory("write-times");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            var large = await WriteBatchAsync(store, "big", 10, expected);
            Assert.Single(large.Select(result => result.LastModified).Distinct());
            await WriteBatchAsync(store, "small", WriteTimes.SharedFrom - 1, expected);
            var single = await store.PutAsync("single/1", Json(Order(1)));
            expected["single/1"] = (Expected(Order(1), single), single.LastModified);

            Assert.Equal(1, TimesKept(store));
            using var reader = store.OpenReader();
            Assert.True(reader.TryGet("big/3", out var shared));
            Assert.True(shared.SharesTime);
            Assert.True(reader.TryGet("small/0", out var inline));
            Assert.False(inline.SharesTime);
            Assert.True(reader.TryGet("single/1", out var alone));
            Assert.False(alone.SharesTime);
            AssertTimes(store, expected);
        }
        using var reopened = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        AssertTimes(reopened, expected);
    }

    [Fact]
    public async Task Read_CompressedDocumentsOfManyBatchesInAnyOrder_EachGetsItsBatchsTime()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), QuickTraining);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        for (var batch = 0; batch < 12; batch++)
            await WriteBatchAsync(store, $"b{batch}", 50, expected);
        await store.Compression.WhenTrainingsDoneAsync();
        for (var batch = 12; batch < 16; batch++)
            await WriteBatchAsync(store, $"b{batch}", 50, expected);

        using (var reader = store.OpenReader())
        {
            Assert.True(reader.TryGet("b15/7", out var late));
            Assert.True(late.IsCompressed && late.SharesTime);
        }
        Assert.Equal(16, TimesKept(store));
        // Random order: each read looks its batch up afresh instead of falling into the last one's range.
        var random = new Random(3);
        AssertTimes(store, expected, expected.Keys.OrderBy(_ => random.Next()));
    }

    [Fact]
    public async Task Batch_RolledBackAfterSharingItsTime_LeavesNoTime_AndTheNextBatchReadsItsOwn()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionOptions.Disabled);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        await WriteBatchAsync(store, "first", 5, expected);
        var failing = new List<DocumentCommand>();
        for (var n = 0; n < 5; n++)
            failing.Add(new DocumentCommand(DocumentCommandType.Put, $"failed/{n}", Json(Order(n)), null));
        failing.Add(new DocumentCommand(DocumentCommandType.Put, "first/0", Json(Order(0)), "A:999-nothing"));
        await Assert.ThrowsAsync<ConcurrencyException>(() => store.BatchAsync(failing));
        await WriteBatchAsync(store, "after", 5, expected);

        Assert.Equal(2, TimesKept(store));
        using (var reader = store.OpenReader())
            Assert.False(reader.TryGet("failed/0", out _));
        AssertTimes(store, expected);
    }

    [Fact]
    public async Task Compact_StoreOfSharedTimes_KeepsEveryDocumentsTime()
    {
        using var directory = new TempDirectory("write-times-compact");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        using var store = DocumentStore.Open(options, QuickTraining);
        for (var batch = 0; batch < 8; batch++)
            await WriteBatchAsync(store, $"c{batch}", 100, expected);
        await store.Compression.WhenTrainingsDoneAsync();
        for (var batch = 0; batch < 8; batch += 2)
        {
            for (var n = 0; n < 100; n += 2)
            {
                await store.DeleteAsync($"c{batch}/{n}");
                expected.Remove($"c{batch}/{n}");
            }
        }

        store.Compact();

        Assert.Equal(8, TimesKept(store));
        AssertTimes(store, expected);
    }

    [Fact]
    public async Task Compact_StoreRewrittenInBatches_DropsTheTimesNoDocumentUses()
    {
        using var directory = new TempDirectory("write-times-drop");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            await WriteBatchAsync(store, "kept", 5, expected);
            for (var n = 0; n < 4; n++)
            {
                await store.DeleteAsync($"kept/{n}");
                expected.Remove($"kept/{n}");
            }
            for (var round = 0; round < 50; round++)
                await WriteBatchAsync(store, "rewritten", 4, expected);
            Assert.Equal(51, TimesKept(store));

            store.Compact();

            // The last rewrite's batch and the one whose last document lives on.
            Assert.Equal(2, TimesKept(store));
            AssertTimes(store, expected);
            await WriteBatchAsync(store, "after", 4, expected);
            AssertTimes(store, expected);
        }
        using var reopened = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        Assert.Equal(3, TimesKept(reopened));
        AssertTimes(reopened, expected);
    }

    [Fact]
    public async Task Read_SharedTimeTheDatabaseLost_IsACorruptionNamingTheEtag()
    {
        using var directory = new TempDirectory("write-times-lost");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        List<WriteResult> results;
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            results = await WriteBatchAsync(store, "lost", 5, expected);
            using var transaction = store.Environment.BeginWrite();
            Assert.True(transaction.DeleteTree(WriteTimes.TreeName));
            transaction.Commit();
        }
        using var reopened = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        using var reader = reopened.OpenReader();
        var e = Assert.Throws<CorruptionException>(() => reader.TryGet("lost/2", out var document) ? document.LastModified : default);
        Assert.Contains($"etag {results[2].Etag}", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_BatchesAsTheyCommit_FromOtherThreads_EachGetsItsBatchsTime()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionOptions.Disabled);
        const int batches = 150;
        var ticks = new long[batches];
        var started = -1;
        var failures = new System.Collections.Concurrent.ConcurrentQueue<string>();
        using var stop = new CancellationTokenSource();
        // Readers chase the batch being written: a document read the instant its commit becomes visible, before the
        // commit has put its time in memory, must be found in its snapshot's tree.
        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                var batch = Volatile.Read(ref started);
                if (batch < 0)
                    continue;
                using var reader = store.OpenReader();
                try
                {
                    if (reader.TryGet($"s{batch}/3", out var document) && batch > 0 && document.LastModified.Ticks <= Volatile.Read(ref ticks[batch - 1]))
                        failures.Enqueue($"s{batch}/3 reads {document.LastModified:O}, no later than batch {batch - 1}'s time");
                }
                catch (Exception e)
                {
                    failures.Enqueue($"s{batch}/3: {e.Message}");
                }
            }
        })).ToArray();
        var expected = new Dictionary<string, (string Json, DateTime Time)>();
        for (var batch = 0; batch < batches; batch++)
        {
            Volatile.Write(ref started, batch);
            var results = await WriteBatchAsync(store, $"s{batch}", 5, expected);
            Volatile.Write(ref ticks[batch], results[0].LastModified.Ticks);
        }
        await stop.CancelAsync();
        await Task.WhenAll(readers);

        Assert.Empty(failures);
        AssertTimes(store, expected);
    }

    private static async Task<List<WriteResult>> WriteBatchAsync(DocumentStore store, string prefix, int count, Dictionary<string, (string Json, DateTime Time)> expected)
    {
        var commands = new List<DocumentCommand>();
        for (var n = 0; n < count; n++)
            commands.Add(new DocumentCommand(DocumentCommandType.Put, $"{prefix}/{n}", Json(Order(n)), null));
        var results = new List<WriteResult>();
        foreach (var result in await store.BatchAsync(commands))
        {
            results.Add(result!);
            expected[result!.Id] = (Expected(Order(int.Parse(result.Id[(result.Id.IndexOf('/') + 1)..], System.Globalization.CultureInfo.InvariantCulture)), result), result.LastModified);
        }
        return results;
    }

    private static void AssertTimes(DocumentStore store, Dictionary<string, (string Json, DateTime Time)> expected, IEnumerable<string>? order = null)
    {
        using var reader = store.OpenReader();
        foreach (var id in order ?? expected.Keys)
        {
            Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
            Assert.Equal(expected[id].Time, document.LastModified);
            Assert.Equal(expected[id].Json, Encoding.UTF8.GetString(document.Json));
        }
    }

    private static long TimesKept(DocumentStore store)
    {
        using var transaction = store.Environment.BeginRead();
        return transaction.OpenTree(WriteTimes.TreeName)!.Count;
    }
}
