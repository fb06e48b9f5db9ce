using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// Compressed bodies leave the store's metadata (id, change vector, date) out of the frame and reads rebuild it
/// from the header: the JSON must come back byte for byte as a plain body gives it, whatever the id, collection
/// or client metadata, and bodies compressed whole by earlier builds must still read and be recompressed.
/// </summary>
public class StoreMetadataCompressionTests
{
    private static readonly string[] AwkwardIds =
    [
        "orders/1",
        "orders/\"quoted\"",
        "orders/back\\slash",
        "orders/ünïcödé-日本",
        "orders/<tag>&amp;'",
    ];

    private static readonly string[] Bodies =
    [
        DocumentCompressionTests.Order(1),
        """{"Name":"x","@metadata":{"Raven-Clr-Type":"Shop.Order, Shop","@flags":"HasAttachments"}}""",
        """{"@metadata":{"@collection":"Ignored"},"Nested":{"@metadata":{"not":"store-owned"}},"Empty":{}}""",
        """{"Text":"ends with a brace {","@metadata":{"n":{}}}""",
    ];

    [Fact]
    public async Task Put_CompressedBody_ReadsBackAsThePlainBodyDoes_ForAwkwardIdsAndMetadata()
    {
        using var compressed = DocumentStore.Open(StorageOptions.InMemory());
        using var plain = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionOptions.Disabled);
        var n = 0;
        foreach (var id in AwkwardIds)
        {
            foreach (var body in Bodies)
            {
                var docId = $"{id}/{n++}";
                var collection = n % 2 == 0 ? "Orders" : "Commandes Spéciales \"Q\"";
                var json = body.Replace("\"@metadata\":{", $"\"@metadata\":{{\"@collection\":\"{collection.Replace("\"", "\\\"")}\",", StringComparison.Ordinal);
                if (!json.Contains("@metadata", StringComparison.Ordinal))
                    json = json[..^1] + $",\"@metadata\":{{\"@collection\":\"{collection.Replace("\"", "\\\"")}\"}}}}";
                await compressed.PutAsync(docId, DocumentCompressionTests.Json(json));
                await plain.PutAsync(docId, DocumentCompressionTests.Json(json));
                AssertSameJson(compressed, plain, docId);
            }
        }
    }

    [Theory]
    [InlineData("Orders", "orders/1-A")]
    [InlineData("Users", "users/joe@example.com|2024 #1, v:2.0")]
    [InlineData("Commandes Spéciales", "orders/ünï")]
    [InlineData("Orders", "orders/<b>&'+`\"\\")]
    public void Write_AnyIdAndCollection_GivesWhatTheJsonWriterWrites(string collection, string id)
    {
        var lastModified = new DateTime(2026, 11, 28, 6, 57, 40, DateTimeKind.Utc).AddTicks(1234567);
        var databaseId = "gSBDnFIOSkGXfLxVW8jFpQ"u8;
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new System.Text.Json.Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("@collection", collection);
            writer.WriteString("@id", id);
            writer.WriteString("@change-vector", ChangeVector.ToString(42, databaseId));
            writer.WriteString("@last-modified", lastModified);
            writer.WriteEndObject();
        }
        var written = new StoreMetadata().Write(Encoding.UTF8.GetBytes(collection), Encoding.UTF8.GetBytes(id), 42, databaseId, lastModified);
        Assert.Equal(Encoding.UTF8.GetString(buffer.WrittenSpan[1..]), Encoding.UTF8.GetString(written));
    }

    [Fact]
    public async Task Put_OrderOfAFewHundredBytes_StoresItsFrameWithoutTheStoreMetadata()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var result = await store.PutAsync("orders/1", DocumentCompressionTests.Json(DocumentCompressionTests.Order(1)));
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet("orders/1", out var document));
        Assert.Equal(Document.CompressedBareFlags, document.BodyFlags);
        Assert.Equal(DocumentCompressionTests.Expected(DocumentCompressionTests.Order(1), result), Encoding.UTF8.GetString(document.Json));
        using var decompressor = Folio.Storage.Platform.Zstd.ZstdLibrary.Default.CreateDecompressor([]);
        var prefix = new byte[document.Json.Length];
        var frame = new byte[BareFrame.FrameLength(document.StoredBody)];
        BareFrame.Rebuild(document.StoredBody, frame);
        var written = decompressor.Decompress(frame, prefix, magicless: true);
        var text = Encoding.UTF8.GetString(prefix, 0, written);
        Assert.EndsWith("\"@metadata\":{", text, StringComparison.Ordinal);
        Assert.DoesNotContain(result.ChangeVector!, text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_BodyCompressedWholeByAnEarlierBuild_ReadsBack_AndCompactionRecompressesIt()
    {
        using var directory = new TempDirectory("whole-bodies");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        using (var store = DocumentStore.Open(options, DocumentCompressionTests.QuickTraining))
        {
            for (var n = 0; n < 400; n++)
            {
                var client = DocumentCompressionTests.Order(n);
                var result = await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(client));
                expected[$"orders/{n}"] = DocumentCompressionTests.Expected(client, result);
            }
            await store.Compression.WhenTrainingsDoneAsync();
            RewriteAsWholeBodies(store, expected);
            using (var reader = store.OpenReader())
            {
                Assert.True(reader.TryGet("orders/7", out var old));
                Assert.Equal(Document.CompressedFlag, old.BodyFlags);
            }
            AssertAllReadBack(store, expected);

            store.Compact();

            using (var reader = store.OpenReader())
            {
                Assert.True(reader.TryGet("orders/7", out var recompressed));
                Assert.Equal(Document.CompressedBareFlags, recompressed.BodyFlags);
            }
            AssertAllReadBack(store, expected);
        }

        using var reopened = DocumentStore.Open(options, DocumentCompressionTests.QuickTraining);
        AssertAllReadBack(reopened, expected);
    }

    [Fact]
    public async Task Read_PrefixFrameWithTheMagicNumber_ReadsBack_AndCompactionDropsTheMagicNumber()
    {
        using var directory = new TempDirectory("magic-frames");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        // At the write path's level, so that the copy's frame is the one the write path made, less the magic number.
        using var store = DocumentStore.Open(options, DocumentCompressionTests.QuickTraining with { CompactionLevel = DocumentCompressionTests.QuickTraining.Level });
        for (var n = 0; n < 400; n++)
        {
            var client = DocumentCompressionTests.Order(n);
            var result = await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(client));
            expected[$"orders/{n}"] = DocumentCompressionTests.Expected(client, result);
        }
        await store.Compression.WhenTrainingsDoneAsync();
        for (var n = 400; n < 600; n++)
        {
            var client = DocumentCompressionTests.Order(n);
            var result = await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(client));
            expected[$"orders/{n}"] = DocumentCompressionTests.Expected(client, result);
        }
        int Length(string id)
        {
            using var reader = store.OpenReader();
            Assert.True(reader.TryGet(id, out var document));
            return RecordLayout.WholeFrame(document).Length;
        }
        var magicless = Length("orders/555");
        RewriteWithMagicNumbers(store, expected.Keys);
        using (var reader = store.OpenReader())
        {
            Assert.True(reader.TryGet("orders/555", out var old));
            Assert.Equal(Document.CompressedPrefixFlag, old.BodyFlags);
            Assert.Equal(magicless + 4, old.StoredBody.Length);
        }
        AssertAllReadBack(store, expected);

        store.Compact();

        using (var reader = store.OpenReader())
        {
            Assert.True(reader.TryGet("orders/555", out var recompressed));
            Assert.Equal(Document.CompressedBareFlags, recompressed.BodyFlags);
            Assert.Equal(magicless - BareFrame.SavedBytes, recompressed.StoredBody.Length);
        }
        AssertAllReadBack(store, expected);
    }

    [Fact]
    public async Task Read_PrefixBodyWhoseHeaderWasDamaged_IsACorruptionNamingTheDocument()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/1", DocumentCompressionTests.Json(DocumentCompressionTests.Order(1)));
        using (var transaction = store.Environment.BeginWrite())
        {
            var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
            var key = Encoding.UTF8.GetBytes("orders/1");
            Assert.True(docs.TryGet(key, out var value));
            var record = value.ToArray();
            // One more byte of JSON than the frame and the rebuilt metadata can make.
            var stored = new Document(key, record, store.CollectionNames);
            record = RecordLayout.With(store, stored, key, stored.BodyFlags, stored.DictionaryVersion, stored.RawLength + 1, stored.StoredBody);
            docs.Put(key, record);
            transaction.Commit();
        }
        using var reader = store.OpenReader();
        var e = Assert.Throws<CorruptionException>(() => reader.TryGet("orders/1", out _));
        Assert.Contains("orders/1", e.Message, StringComparison.Ordinal);
    }

    /// <summary>Stores each body as builds before the prefix form did: the whole JSON, metadata included, in one frame (with the magic number) without a dictionary, the id in the record.</summary>
    private static void RewriteAsWholeBodies(DocumentStore store, Dictionary<string, string> expected)
    {
        using var transaction = store.Environment.BeginWrite();
        var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        foreach (var (id, json) in expected)
        {
            var key = Encoding.UTF8.GetBytes(id);
            Assert.True(docs.TryGet(key, out var value));
            var stored = new Document(key, value.ToArray(), store.CollectionNames);
            var bytes = Encoding.UTF8.GetBytes(json);
            var frame = EarlierFrames.Compress(bytes, []);
            // Those builds also kept the id in the record: an empty key makes the header carry it.
            var record = RecordLayout.With(store, stored, [], Document.CompressedFlag, 0, bytes.Length, frame);
            docs.Put(key, record);
        }
        transaction.Commit();
    }

    /// <summary>Gives each compressed body back the magic number its frame was written without, as the build before documents format 3 stored it.</summary>
    private static void RewriteWithMagicNumbers(DocumentStore store, IEnumerable<string> ids)
    {
        using var transaction = store.Environment.BeginWrite();
        var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        foreach (var id in ids)
        {
            var key = Encoding.UTF8.GetBytes(id);
            Assert.True(docs.TryGet(key, out var value));
            var stored = new Document(key, value.ToArray(), store.CollectionNames);
            if (!stored.IsMagicless)
                continue;
            var record = RecordLayout.With(store, stored, key, Document.CompressedPrefixFlag, stored.DictionaryVersion, stored.RawLength, [.. EarlierFrames.Magic, .. RecordLayout.WholeFrame(stored)]);
            docs.Put(key, record);
        }
        transaction.Commit();
    }

    private static void AssertAllReadBack(DocumentStore store, Dictionary<string, string> expected)
    {
        foreach (var (id, json) in expected)
            DocumentCompressionTests.AssertReadsBack(store, id, json);
    }

    private static void AssertSameJson(DocumentStore compressed, DocumentStore plain, string id)
    {
        using var a = compressed.OpenReader();
        using var b = plain.OpenReader();
        Assert.True(a.TryGet(id, out var left), $"{id} is missing");
        Assert.True(b.TryGet(id, out var right), $"{id} is missing");
        Assert.Equal(0, right.BodyFlags);
        var plainText = Encoding.UTF8.GetString(right.Json);
        // The change vector names each store's own database id; everything else must match byte for byte.
        Assert.Equal(plainText.Replace(ChangeVector.ToString(right.Etag, plain.DatabaseIdBytes), "CV", StringComparison.Ordinal)
                .Replace(right.LastModified.ToString("O", System.Globalization.CultureInfo.InvariantCulture), "LM", StringComparison.Ordinal),
            Encoding.UTF8.GetString(left.Json).Replace(ChangeVector.ToString(left.Etag, compressed.DatabaseIdBytes), "CV", StringComparison.Ordinal)
                .Replace(left.LastModified.ToString("O", System.Globalization.CultureInfo.InvariantCulture), "LM", StringComparison.Ordinal));
    }
}
