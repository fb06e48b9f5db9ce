using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// Documents format 6's record: varints, the collection's number instead of its name (the name kept in the record only
/// when its casing differs from the number's), and a header that tells a damaged or newer record from a good one.
/// </summary>
public class RecordLayoutTests
{
    [Fact]
    public async Task Put_CollectionInOtherCasings_EachDocumentReadsBackItsOwn_AlsoAfterAReopen()
    {
        using var directory = new TempDirectory("record-casing");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            foreach (var (id, collection) in new[] { ("a/1", "Users"), ("a/2", "users"), ("a/3", "USERS"), ("a/4", "Users") })
            {
                var client = $$$"""{"Name":"{{{id}}}","@metadata":{"@collection":"{{{collection}}}"}}""";
                var result = await store.PutAsync(id, DocumentCompressionTests.Json(client));
                Assert.Equal(collection, result.Collection);
                expected[id] = collection;
            }
            AssertCollections(store, expected);
            Assert.Equal(RecordLayout.MinimalHeader(Stored(store, "a/1")), HeaderLength(store, "a/1"));
            Assert.Equal(RecordLayout.MinimalHeader(Stored(store, "a/2")) + 1 + "users".Length, HeaderLength(store, "a/2"));
            Assert.Equal(RecordLayout.MinimalHeader(Stored(store, "a/4")), HeaderLength(store, "a/4"));
        }
        using var reopened = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        AssertCollections(reopened, expected);
        using var reader = reopened.OpenReader();
        Assert.Equal(4, reader.CountInCollection("users"));
    }

    [Fact]
    public async Task Batch_RolledBackAfterNumberingACollection_TheNextNewCollectionReadsBackItsOwnName()
    {
        using var directory = new TempDirectory("record-rollback");
        var options = StorageOptions.ForPath(directory.Path);
        using (var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled))
        {
            await store.PutAsync("keep/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"Keeps"}}"""));
            var failing = new List<DocumentCommand>
            {
                new(DocumentCommandType.Put, "x/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"Xylophones"}}"""), null),
                new(DocumentCommandType.Put, "keep/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"Keeps"}}"""), "A:999-nothing"),
            };
            await Assert.ThrowsAsync<ConcurrencyException>(() => store.BatchAsync(failing));
            await store.PutAsync("z/1", DocumentCompressionTests.Json("""{"@metadata":{"@collection":"Zebras"}}"""));
            using var reader = store.OpenReader();
            Assert.False(reader.TryGet("x/1", out _));
            Assert.True(reader.TryGet("z/1", out var zebra));
            Assert.Equal("Zebras", zebra.CollectionString);
            Assert.Contains("\"@collection\":\"Zebras\"", Encoding.UTF8.GetString(zebra.Json), StringComparison.Ordinal);
        }
        using var reopened = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        using var again = reopened.OpenReader();
        Assert.True(again.TryGet("z/1", out var reread));
        Assert.Equal("Zebras", reread.CollectionString);
        Assert.Equal(["Keeps", "Zebras"], again.Collections().Keys.ToArray());
    }

    [Fact]
    public async Task Read_RecordNamingACollectionNumberNeverGiven_IsACorruption()
    {
        var e = await ReadDamagedAsync(record =>
        {
            // The etag (a varint of one byte for etag 1) and the ticks (7 bytes) come before the number.
            Assert.Equal(0, record[9]);
            record[9] = 99;
            return record;
        });
        Assert.Contains("collection number 99", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_RecordSharingItsBatchsTimeAndHoldingAWideOne_IsACorruption()
    {
        // Every bit of the flags byte has a meaning since format 7; a newer build's records come with a newer format
        // number, which the open refuses. A combination no build writes must still be told from a good record.
        var e = await ReadDamagedAsync(record =>
        {
            record[0] |= 0x80 | 0x20;
            return record;
        });
        Assert.Contains("shares its batch's time", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_RecordWithAWideDateNoDateCanBe_IsACorruption()
    {
        var e = await ReadDamagedAsync(record =>
        {
            // Flags, etag 1, then 7 bytes of ticks: widen them to 8 with every bit set (a negative count).
            var wide = new byte[record.Length + 1];
            wide[0] = (byte)(record[0] | 32);
            wide[1] = record[1];
            Array.Fill(wide, (byte)0xFF, 2, 8);
            record.AsSpan(9).CopyTo(wide.AsSpan(10));
            return wide;
        });
        Assert.Contains("last-modified", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Read_CompressedRecordClaimingMoreJsonThanItsFrameCanHold_IsACorruptionBeforeAnyAllocation()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionTests.QuickTraining);
        for (var n = 0; n < 300; n++)
            await store.PutAsync($"orders/{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)));
        await store.Compression.WhenTrainingsDoneAsync();
        await store.PutAsync("orders/last", DocumentCompressionTests.Json(DocumentCompressionTests.Order(1)));
        Replace(store, "orders/last", record =>
        {
            var stored = new Document(DocumentIds.Key("orders/last"), record, store.CollectionNames);
            Assert.True(stored.IsCompressed);
            return RecordLayout.With(store, stored, DocumentIds.Key("orders/last"), stored.BodyFlags, stored.DictionaryVersion, int.MaxValue, stored.StoredBody);
        });
        using var reader = store.OpenReader();
        var e = Assert.Throws<CorruptionException>(() => reader.TryGet("orders/last", out _));
        Assert.Contains("more than any frame", e.Message, StringComparison.Ordinal);
        Assert.True(reader.TryGet("orders/299", out _));
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Read_RecordCutInsideItsHeader_IsACorruptionAtEveryLength(bool compressed)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), compressed ? DocumentCompressionTests.QuickTraining : DocumentCompressionOptions.Disabled);
        for (var n = 0; n < 300; n++)
            await store.PutAsync($"Orders/{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)));
        await store.Compression.WhenTrainingsDoneAsync();
        await store.PutAsync("Orders/last", DocumentCompressionTests.Json("{\"@metadata\":{\"@collection\":\"ORDERS\"}," + DocumentCompressionTests.Order(1)[1..]));
        byte[] record;
        int header;
        using (var transaction = store.Environment.BeginRead())
        {
            Assert.True(transaction.OpenTree(DocumentStore.DocsTree)!.TryGet(DocumentIds.Key("Orders/last"), out var value));
            record = value.ToArray();
            var stored = new Document(DocumentIds.Key("Orders/last"), record, store.CollectionNames);
            Assert.Equal(compressed, stored.IsCompressed);
            Assert.True(stored.HoldsCollectionName);
            header = record.Length - stored.StoredBody.Length;
        }
        for (var length = 0; length < header; length++)
        {
            var cut = record[..length];
            Assert.Throws<CorruptionException>(() => new Document(DocumentIds.Key("Orders/last"), cut, store.CollectionNames).Etag);
        }
    }

    [Theory]
    [InlineData(1L, 0L)]
    [InlineData(127L, 630_822_815_999_999_999L)]
    [InlineData(128L, 630_822_816_000_000_000L)]
    [InlineData(16_384L, 639_000_000_000_000_000L)]
    [InlineData(long.MaxValue, 630_822_816_000_000_000L + (1L << 56) - 1)]
    [InlineData(1_000_000L, 630_822_816_000_000_000L + (1L << 56))]
    [InlineData(1_000_000L, 3_155_378_975_999_999_999L)]
    public void WriteHeader_AnyEtagAndDate_ReadsBackExactly(long etag, long ticks)
    {
        var names = new CollectionNames();
        names.Set(0, "Orders"u8.ToArray());
        names.Set(300, "Users"u8.ToArray());
        var lastModified = new DateTime(ticks, DateTimeKind.Utc);
        foreach (var (number, collection, id, flags, dictionary, raw) in new (uint, string, string, byte, int, int)[]
        {
            (0, "Orders", "orders/1", 0, 0, 0),
            (300, "users", "Users/1", Document.CompressedPrefixMagiclessFlag, 65_535, 150_000),
        })
        {
            var key = DocumentIds.Key(id);
            var numbered = names.NameOf(number);
            var length = Document.HeaderLength(etag, lastModified, key, Encoding.UTF8.GetBytes(id), number, Encoding.UTF8.GetBytes(collection), numbered, flags, dictionary, raw);
            var record = new byte[length + 3];
            Assert.Equal(length, Document.WriteHeader(record, etag, lastModified, key, Encoding.UTF8.GetBytes(id), number, Encoding.UTF8.GetBytes(collection), numbered, flags, dictionary, raw));
            var read = new Document(key, record, names);
            Assert.Equal(etag, read.Etag);
            Assert.Equal(lastModified, read.LastModified);
            Assert.Equal(id, read.IdString);
            Assert.Equal(collection, read.CollectionString);
            Assert.Equal(number, read.CollectionNumber);
            Assert.Equal(flags, read.BodyFlags);
            Assert.Equal(dictionary, read.DictionaryVersion);
            Assert.Equal(flags == 0 ? 3 : raw, read.RawLength);
            Assert.Equal(3, read.StoredBody.Length);
        }
    }

    private static void AssertCollections(DocumentStore store, Dictionary<string, string> expected)
    {
        using var reader = store.OpenReader();
        foreach (var (id, collection) in expected)
        {
            Assert.True(reader.TryGet(id, out var document));
            Assert.Equal(collection, document.CollectionString);
            Assert.Contains($"\"@collection\":\"{collection}\"", Encoding.UTF8.GetString(document.Json), StringComparison.Ordinal);
        }
        var listed = new Dictionary<string, string>();
        var cursor = reader.ByCollection("users");
        while (cursor.MoveNext())
            listed[cursor.Current.IdString] = cursor.Current.CollectionString;
        Assert.Equal(expected, listed);
    }

    private static Document Stored(DocumentStore store, string id)
    {
        using var transaction = store.Environment.BeginRead();
        Assert.True(transaction.OpenTree(DocumentStore.DocsTree)!.TryGet(DocumentIds.Key(id), out var value));
        return new Document(DocumentIds.Key(id), value.ToArray(), store.CollectionNames);
    }

    private static int HeaderLength(DocumentStore store, string id)
    {
        var stored = Stored(store, id);
        using var transaction = store.Environment.BeginRead();
        Assert.True(transaction.OpenTree(DocumentStore.DocsTree)!.TryGet(DocumentIds.Key(id), out var value));
        return value.Length - stored.StoredBody.Length;
    }

    /// <summary>Stores <c>orders/1</c> (etag 1, plain), replaces its record with <paramref name="damage"/>'s and returns what reading it throws.</summary>
    private static async Task<CorruptionException> ReadDamagedAsync(Func<byte[], byte[]> damage)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), DocumentCompressionOptions.Disabled);
        await store.PutAsync("orders/1", DocumentCompressionTests.Json("""{"A":1}"""));
        Replace(store, "orders/1", damage);
        using var reader = store.OpenReader();
        return Assert.Throws<CorruptionException>(() => reader.TryGet("orders/1", out _));
    }

    private static void Replace(DocumentStore store, string id, Func<byte[], byte[]> replacement)
    {
        using var transaction = store.Environment.BeginWrite();
        var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        Assert.True(docs.TryGet(DocumentIds.Key(id), out var value));
        docs.Put(DocumentIds.Key(id), replacement(value.ToArray()));
        transaction.Commit();
    }
}
