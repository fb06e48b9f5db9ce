using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

public class CompactionEstimateTests
{
    private static async Task WriteAsync(DocumentStore store, int from, int count, string shape = "a")
    {
        for (var first = from; first < from + count; first += 100)
        {
            var commands = new List<DocumentCommand>();
            for (var n = first; n < Math.Min(from + count, first + 100); n++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n, shape)), null));
            await store.BatchAsync(commands);
            await store.Compression.WhenTrainingsDoneAsync();
        }
    }

    private static async Task DeleteEveryOtherAsync(DocumentStore store, int count)
    {
        for (var first = 0; first < count; first += 200)
        {
            var commands = new List<DocumentCommand>();
            for (var n = first; n < Math.Min(count, first + 200); n += 2)
                commands.Add(new DocumentCommand(DocumentCommandType.Delete, $"orders/{n}", null, null));
            await store.BatchAsync(commands);
        }
    }

    [Fact]
    public async Task EstimateCompaction_FindsLittle_InAStoreWrittenInOneGo()
    {
        using var directory = new TempDirectory("estimate-fresh");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), DocumentCompressionOptions.Disabled);
        await WriteAsync(store, 0, 4000);

        var estimate = store.EstimateCompaction();

        Assert.True(estimate.FileBytes > 1 << 20, $"file {estimate.FileBytes} B");
        Assert.Equal(0, estimate.RecompressibleDocuments);
        Assert.True(estimate.ReclaimableShare < 0.1, $"{estimate}");
    }

    [Fact]
    public async Task EstimateCompaction_FindsWhatCompactionGivesBack_AfterHalfTheDocumentsAreDeleted()
    {
        using var directory = new TempDirectory("estimate-deleted");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), DocumentCompressionOptions.Disabled);
        await WriteAsync(store, 0, 4000);
        await DeleteEveryOtherAsync(store, 4000);

        var estimate = store.EstimateCompaction();
        var result = store.Compact();

        Assert.True(estimate.ReclaimableShare > 0.3, $"{estimate}");
        Assert.True(result.BytesReturned > 0, $"{result}");
        var error = Math.Abs(estimate.ReclaimableBytes - result.BytesReturned) / (double)estimate.FileBytes;
        Assert.True(error < 0.1, $"estimated {estimate.ReclaimableBytes} B, compaction gave back {result.BytesReturned} B of {estimate.FileBytes}");
        Assert.True(store.EstimateCompaction().ReclaimableShare < 0.1, "a store just compacted has little left to give back");
    }

    [Fact]
    public async Task EstimateCompaction_CountsWhatPackingMidsizeBodiesGivesBack()
    {
        using var directory = new TempDirectory("estimate-midsize");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), DocumentCompressionOptions.Disabled);
        var random = new Random(11);
        for (var first = 0; first < 1500; first += 100)
        {
            var commands = new List<DocumentCommand>();
            for (var n = first; n < first + 100; n++)
            {
                // Random letters: a body of 4-6 KB that takes an overflow page of its own when written.
                var text = new string(Enumerable.Range(0, random.Next(4_100, 5_900)).Select(_ => (char)('a' + random.Next(26))).ToArray());
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"blobs/{n}", Json("{\"Text\":\"" + text + "\"}"), null));
            }
            await store.BatchAsync(commands);
        }

        var estimate = store.EstimateCompaction();
        var result = store.Compact();

        Assert.True(estimate.SlackBytes > estimate.FileBytes / 5, $"{estimate}");
        Assert.True(result.BytesReturned >= estimate.SlackBytes * 0.8, $"estimated {estimate.SlackBytes} B of slack, compaction gave back {result.BytesReturned} B of {estimate.FileBytes}");
        Assert.True(store.EstimateCompaction().ReclaimableShare < 0.1, "a store just compacted has little left to give back");
    }

    [Fact]
    public async Task EstimateCompaction_CountsBodiesUnderAnOlderDictionary_AndWhatRecompressingThemSaves()
    {
        using var directory = new TempDirectory("estimate-dictionary");
        // At the write path's level, so that only the dictionary decides which bodies a copy recompresses.
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), QuickTraining with { CompactionLevel = QuickTraining.Level });
        await WriteAsync(store, 0, 600, "a");
        await WriteAsync(store, 600, 900, "b");
        var current = store.Compression.CurrentVersion("orders");
        Assert.True(current >= 2, $"current dictionary {current}");
        long olderBodies;
        using (var reader = store.OpenReader())
        {
            olderBodies = 0;
            for (var n = 0; n < 1500; n++)
            {
                Assert.True(reader.TryGet($"orders/{n}", out var document));
                if (document.DictionaryVersion != current)
                    olderBodies++;
            }
        }

        var estimate = store.EstimateCompaction();
        var storedBefore = StoredBytes(store);
        store.Compact();
        var saved = storedBefore - StoredBytes(store);

        Assert.Equal(olderBodies, estimate.RecompressibleDocuments);
        Assert.True(saved > 0, $"compaction saved {saved} B");
        Assert.InRange(estimate.RecompressionBytes, saved / 2, saved * 2);
        Assert.True(store.EstimateCompaction().RecompressionBytes < saved / 10, "bodies recompressed have nothing more to save");
    }

    private static long StoredBytes(DocumentStore store)
    {
        using var reader = store.OpenReader();
        return reader.CollectionStorage().Single(c => c.Name.Equals("orders", StringComparison.OrdinalIgnoreCase)).StoredBytes;
    }
}
