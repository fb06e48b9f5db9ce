using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;
using static Folio.Storage.Tests.Documents.DocumentCompressionTests;

namespace Folio.Storage.Tests.Documents;

public class DictionaryTrainingTests
{
    private static async Task<List<(string Id, string Expected)>> WriteAsync(DocumentStore store, int from, int count, string shape)
    {
        var written = new List<(string, string)>();
        for (var first = from; first < from + count; first += 50)
        {
            var commands = new List<DocumentCommand>();
            for (var n = first; n < Math.Min(from + count, first + 50); n++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", Json(Order(n, shape)), null));
            var results = await store.BatchAsync(commands);
            for (var i = 0; i < results.Count; i++)
                written.Add((results[i]!.Id, Expected(Order(first + i, shape), results[i]!)));
            // Trainings run beside the writes; waiting here keeps the test's order of events fixed.
            await store.Compression.WhenTrainingsDoneAsync();
        }
        return written;
    }

    private static void AssertAllReadBack(DocumentStore store, List<(string Id, string Expected)> written)
    {
        using var reader = store.OpenReader();
        foreach (var (id, expected) in written)
        {
            Assert.True(reader.TryGet(id, out var document), $"{id} is missing");
            Assert.Equal(expected, Encoding.UTF8.GetString(document.Json));
        }
    }

    private static int VersionOf(DocumentStore store, string id)
    {
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet(id, out var document));
        return document.DictionaryVersion;
    }

    [Fact]
    public async Task Compact_RecompressesOlderBodiesWithTheCurrentDictionary_AndReadsThemBackTheSame()
    {
        using var directory = new TempDirectory("recompress");
        var options = StorageOptions.ForPath(directory.Path);
        List<(string Id, string Expected)> written;
        Dictionary<string, long> etags = [];
        long storedBefore, atCurrentBefore;
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            written = await WriteAsync(store, 0, 600, "a");
            written.AddRange(await WriteAsync(store, 600, 900, "b"));
            var current = store.Compression.CurrentVersion("orders");
            Assert.True(current >= 1);
            (storedBefore, atCurrentBefore) = Census(store, current, etags);

            store.Compact();

            var (storedAfter, atCurrentAfter) = Census(store, current, []);
            Assert.True(atCurrentAfter > atCurrentBefore, $"{atCurrentAfter} bodies at dictionary {current} after, {atCurrentBefore} before");
            Assert.True(storedAfter < storedBefore, $"stored {storedAfter} bytes after, {storedBefore} before");
            AssertAllReadBack(store, written);
        }

        using var reopened = DocumentStore.Open(options, QuickTraining);
        AssertAllReadBack(reopened, written);
        using var reader = reopened.OpenReader();
        foreach (var (id, etag) in etags)
        {
            Assert.True(reader.TryGet(id, out var document));
            Assert.Equal(etag, document.Etag);
        }
    }

    /// <summary>Stored bytes of the orders and how many bodies are compressed with <paramref name="version"/>; fills each id's etag.</summary>
    private static (long Stored, long AtVersion) Census(DocumentStore store, int version, Dictionary<string, long> etags)
    {
        using var reader = store.OpenReader();
        long atVersion = 0;
        for (var n = 0; n < 1500; n++)
        {
            Assert.True(reader.TryGet($"orders/{n}", out var document));
            etags[$"orders/{n}"] = document.Etag;
            if (document.DictionaryVersion == version)
                atVersion++;
        }
        var stored = reader.CollectionStorage().Single(c => c.Name.Equals("orders", StringComparison.OrdinalIgnoreCase)).StoredBytes;
        return (stored, atVersion);
    }

    [Fact]
    public async Task Put_CollectionWhoseShapeChanges_RetrainsAndKeepsOldBodiesReadable_AcrossReopen()
    {
        using var directory = new TempDirectory("retrain");
        var options = StorageOptions.ForPath(directory.Path);
        List<(string Id, string Expected)> written;
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            written = await WriteAsync(store, 0, 600, "a");
            Assert.Equal(1, store.Compression.CurrentVersion("Orders"));
            Assert.Equal(1, VersionOf(store, "orders/599"));
            written.AddRange(await WriteAsync(store, 600, 900, "b"));
            Assert.Equal(2, store.Compression.CurrentVersion("orders"));
            Assert.Equal(1, VersionOf(store, "orders/500"));
            Assert.Equal(2, VersionOf(store, "orders/1499"));
            AssertAllReadBack(store, written);
        }

        using (var reopened = DocumentStore.Open(options, QuickTraining))
        {
            Assert.Equal(2, reopened.Compression.CurrentVersion("orders"));
            AssertAllReadBack(reopened, written);
            var more = await WriteAsync(reopened, 1500, 10, "b");
            Assert.Equal(2, VersionOf(reopened, "orders/1505"));
            AssertAllReadBack(reopened, more);
        }
    }

    /// <summary>Quick training, with retraining on a worse ratio out of the way so only growth retrains.</summary>
    private static readonly Folio.Storage.Documents.Compression.DocumentCompressionOptions GrowthOnly =
        QuickTraining with { RetrainWhenWorseBy = 1000, RetrainAfterGrowth = 4 };

    [Fact]
    public async Task Put_CollectionThatGrowsUnlikeItsFirstBodies_AdoptsADictionaryTrainedAcrossTheGrowth()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), GrowthOnly);
        var written = await WriteAsync(store, 0, 200, "a");
        Assert.Equal(1, store.Compression.CurrentVersion("orders"));
        written.AddRange(await WriteAsync(store, 200, 750, "b"));
        Assert.Equal(1, store.Compression.CurrentVersion("orders"));

        // The span is 4 × 200 bodies after the first dictionary: these end it.
        written.AddRange(await WriteAsync(store, 950, 100, "b"));
        Assert.Equal(2, store.Compression.CurrentVersion("orders"));
        written.AddRange(await WriteAsync(store, 1050, 50, "b"));
        Assert.Equal(2, VersionOf(store, "orders/1099"));
        Assert.Equal(1, VersionOf(store, "orders/500"));
        AssertAllReadBack(store, written);
    }

    [Fact]
    public async Task Get_BodyWhoseDictionaryIsDamaged_ThrowsNamingTheDocument()
    {
        using var directory = new TempDirectory("damaged-dictionary");
        var options = StorageOptions.ForPath(directory.Path);
        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            await WriteAsync(store, 0, 600, "a");
            await WriteAsync(store, 600, 900, "b");
            Assert.Equal(2, store.Compression.CurrentVersion("orders"));
        }

        using (var environment = StorageEnvironment.Open(options))
        {
            using var tx = environment.BeginWrite();
            var dictionaries = tx.OpenTree("doc-dictionaries")!;
            var key = new byte[4];
            BinaryPrimitives.WriteInt32BigEndian(key, 1);
            Assert.True(dictionaries.TryGet(key, out var stored));
            var damaged = stored.ToArray();
            damaged[^100] ^= 0x5A;
            dictionaries.Put(key, damaged);
            tx.Commit();
        }

        using (var store = DocumentStore.Open(options, QuickTraining))
        {
            using var reader = store.OpenReader();
            var error = Assert.Throws<CorruptionException>(() => reader.TryGet("orders/500", out _));
            Assert.Contains("orders/500", error.Message);
            Assert.Contains("dictionary 1", error.Message);
            Assert.True(reader.TryGet("orders/1499", out var unaffected));
            Assert.StartsWith("{\"sensor_identifier\"", Encoding.UTF8.GetString(unaffected.Json));
        }

        using (var environment = StorageEnvironment.Open(options))
        {
            using var tx = environment.BeginWrite();
            var key = new byte[4];
            BinaryPrimitives.WriteInt32BigEndian(key, 1);
            Assert.True(tx.OpenTree("doc-dictionaries")!.Delete(key));
            tx.Commit();
        }

        using (var store = DocumentStore.Open(options))
        {
            using var reader = store.OpenReader();
            var error = Assert.Throws<CorruptionException>(() => reader.TryGet("orders/501", out _));
            Assert.Contains("orders/501", error.Message);
            Assert.True(reader.TryGet("orders/7", out var beforeTraining), "bodies from before the first dictionary need none");
        }
    }

    [Fact]
    public void Open_DatabaseOfANewerDocumentsFormat_IsRefusedWithAClearMessage()
    {
        using var directory = new TempDirectory("newer-format");
        var options = StorageOptions.ForPath(directory.Path);
        DocumentStore.Open(options).Dispose();
        using (var environment = StorageEnvironment.Open(options))
        {
            using var tx = environment.BeginWrite();
            var value = new byte[4];
            BinaryPrimitives.WriteInt32LittleEndian(value, DocumentStore.DocumentsFormat + 1);
            tx.OpenTree("meta")!.Put("documents-format"u8, value);
            tx.Commit();
        }

        var error = Assert.Throws<UnsupportedFormatException>(() => DocumentStore.Open(options));
        Assert.Contains($"format {DocumentStore.DocumentsFormat + 1}", error.Message);
        Assert.Contains("newer Folio", error.Message);
    }
}
