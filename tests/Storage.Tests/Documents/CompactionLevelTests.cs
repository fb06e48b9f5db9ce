using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

/// <summary>A compaction recompresses what the write path compressed at its fast level at the compaction's slower, denser one, once.</summary>
public class CompactionLevelTests
{
    private static async Task<List<(string Id, string Expected)>> WriteAsync(DocumentStore store, int from, int count)
    {
        var written = new List<(string, string)>();
        for (var first = from; first < from + count; first += 100)
        {
            var commands = new List<DocumentCommand>();
            for (var n = first; n < Math.Min(from + count, first + 100); n++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n)), null));
            var results = await store.BatchAsync(commands);
            for (var i = 0; i < results.Count; i++)
                written.Add((results[i]!.Id, Expected(Order(first + i), results[i]!)));
            await store.Compression.WhenTrainingsDoneAsync();
        }
        return written;
    }

    private static bool IsCompacted(DocumentStore store, string id)
    {
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
        return document.IsCompacted;
    }

    private static long StoredBytes(DocumentStore store)
    {
        using var reader = store.OpenReader();
        return reader.CollectionStorage().Single(c => c.Name.Equals("orders", StringComparison.OrdinalIgnoreCase)).StoredBytes;
    }

    /// <summary>
    /// Writes the bodies again until every one is under the collection's current dictionary: the first were compressed
    /// before it had one, and a dictionary retrained as the collection grows may be adopted during a pass (whether it is
    /// depends on the sample it was trained on).
    /// </summary>
    private static async Task<List<(string Id, string Expected)>> WriteAllUnderTheCurrentDictionaryAsync(DocumentStore store, int count)
    {
        await WriteAsync(store, 0, count);
        for (var pass = 0; pass < 4; pass++)
        {
            var written = await WriteAsync(store, 0, count);
            var current = store.Compression.CurrentVersion("orders");
            if (current >= 1 && AllUnder(store, written, current))
                return written;
        }
        throw new InvalidOperationException($"After 5 passes over {count} bodies, some are still not under the current dictionary.");
    }

    private static bool AllUnder(DocumentStore store, List<(string Id, string Expected)> written, int version)
    {
        using var reader = store.OpenReader();
        foreach (var (id, _) in written)
        {
            Assert.True(reader.TryGet(id, out var document));
            if (document.DictionaryVersion != version)
                return false;
        }
        return true;
    }

    [Fact]
    public async Task Compact_RecompressesBodiesAtItsLevel_OnceAndReadsThemBackTheSame()
    {
        using var directory = new TempDirectory("compaction-level");
        var options = StorageOptions.ForPath(directory.Path);
        List<(string Id, string Expected)> written;
        Dictionary<string, long> etags = [];
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            written = await WriteAllUnderTheCurrentDictionaryAsync(store, 1000);
            using (var reader = store.OpenReader())
            {
                foreach (var (id, _) in written)
                {
                    Assert.True(reader.TryGet(id, out var document));
                    etags[id] = document.Etag;
                }
            }
            var estimate = store.EstimateCompaction();
            var storedBefore = StoredBytes(store);

            store.Compact();

            var storedAfter = StoredBytes(store);
            Assert.Equal(1000, estimate.RecompressibleDocuments);
            Assert.True(storedAfter < storedBefore, $"stored {storedAfter} B after, {storedBefore} B before");
            Assert.InRange(estimate.RecompressionBytes, (storedBefore - storedAfter) / 2, (storedBefore - storedAfter) * 2);
            Assert.All(written, w => Assert.True(IsCompacted(store, w.Id), $"{w.Id} is not marked"));
            var again = store.EstimateCompaction();
            Assert.Equal(0, again.RecompressibleDocuments);
            Assert.Equal(0, again.RecompressionBytes);
        }

        using var reopened = DocumentStore.Open(options, QuickTraining);
        using (var reader = reopened.OpenReader())
        {
            foreach (var (id, expected) in written)
            {
                Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
                Assert.Equal(expected, Encoding.UTF8.GetString(document.Json));
                Assert.Equal(etags[id], document.Etag);
            }
        }
        await reopened.PutAsync("orders/7", Json(Order(7)));
        Assert.False(IsCompacted(reopened, "orders/7"));
        Assert.Equal(1, reopened.EstimateCompaction().RecompressibleDocuments);
    }

    [Fact]
    public async Task Compact_RecompressesMarkedBodies_OnceTheirCollectionHasANewerDictionary()
    {
        using var directory = new TempDirectory("compaction-level-newer");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), QuickTraining);
        var written = await WriteAllUnderTheCurrentDictionaryAsync(store, 600);
        store.Compact();
        var marked = store.Compression.CurrentVersion("orders");
        // Bodies of another shape, then of the first again, make the collection train newer dictionaries, the last on
        // bodies like the marked ones.
        foreach (var (from, shape) in new[] { (600, "b"), (1500, "a") })
        {
            for (var first = from; first < from + 900; first += 100)
            {
                var commands = new List<DocumentCommand>();
                for (var n = first; n < first + 100; n++)
                    commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n, shape)), null));
                await store.BatchAsync(commands);
                await store.Compression.WhenTrainingsDoneAsync();
            }
        }
        var current = store.Compression.CurrentVersion("orders");
        Assert.True(current > marked, $"dictionary {current} after the second shape, {marked} before");

        var estimate = store.EstimateCompaction();
        store.Compact();

        Assert.True(estimate.RecompressibleDocuments >= 600, $"{estimate.RecompressibleDocuments} recompressible");
        using var reader = store.OpenReader();
        var recompressed = 0;
        foreach (var (id, expected) in written)
        {
            Assert.True(reader.TryGet(id, out var document));
            Assert.Equal(expected, Encoding.UTF8.GetString(document.Json));
            Assert.True(document.IsCompacted, $"{id} lost its mark");
            if (document.DictionaryVersion == current)
                recompressed++;
        }
        Assert.True(recompressed > 0, "no marked body was recompressed with the newer dictionary");
    }

    [Fact]
    public async Task Compact_LeavesBodiesAsTheyAre_WhenItsLevelIsNoHigherThanTheWritePaths()
    {
        using var directory = new TempDirectory("compaction-level-same");
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory.Path), QuickTraining with { CompactionLevel = QuickTraining.Level });
        var written = await WriteAllUnderTheCurrentDictionaryAsync(store, 1000);
        var storedBefore = StoredBytes(store);

        var estimate = store.EstimateCompaction();
        store.Compact();

        Assert.Equal(0, estimate.RecompressibleDocuments);
        Assert.Equal(storedBefore, StoredBytes(store));
        foreach (var (id, expected) in written)
            AssertReadsBack(store, id, expected);
    }
}
