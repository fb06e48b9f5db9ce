using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// A record leaves out the id when the key it is stored under holds the same bytes (an id already in lower case),
/// and keeps it when the casing differs: every way of reading a document must give back the id as it was written,
/// and records written before, which carry the id, must read the same and lose the copy on compaction.
/// </summary>
public class RecordIdTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Put_IdAlreadyInLowerCase_IsStoredOnlyAsTheKey(bool compressed)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), compressed ? DocumentCompressionTests.QuickTraining : DocumentCompressionOptions.Disabled);
        await store.PutAsync("orders/1", DocumentCompressionTests.Json(DocumentCompressionTests.Order(1)));

        var record = StoredRecord(store, "orders/1");
        var stored = new Document("orders/1"u8, record, store.CollectionNames);
        Assert.Equal(RecordLayout.MinimalHeader(stored) + stored.StoredBody.Length, record.Length);
        AssertEveryReadGives(store, "orders", "orders/1");
    }

    [Theory]
    [InlineData("Orders/A-1", false)]
    [InlineData("Orders/A-1", true)]
    [InlineData("orders/ÜBER", true)]
    [InlineData("orders/ünï-日本", true)]
    public async Task Put_AnyId_EveryReadGivesItBackAsWritten(string id, bool compressed)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory(), compressed ? DocumentCompressionTests.QuickTraining : DocumentCompressionOptions.Disabled);
        for (var n = 0; n < 3; n++)
            await store.PutAsync($"{id}{n}", DocumentCompressionTests.Json(DocumentCompressionTests.Order(n)));

        for (var n = 0; n < 3; n++)
            AssertEveryReadGives(store, DocumentIds.CollectionFromId(id), $"{id}{n}");
        var record = StoredRecord(store, $"{id}0");
        var key = DocumentIds.Key($"{id}0");
        var idBytes = Encoding.UTF8.GetByteCount($"{id}0");
        var inline = !key.AsSpan().SequenceEqual(Encoding.UTF8.GetBytes($"{id}0"));
        var stored = new Document(key, record, store.CollectionNames);
        Assert.Equal(RecordLayout.MinimalHeader(stored) + (inline ? 1 + idBytes : 0) + stored.StoredBody.Length, record.Length);
    }

    [Fact]
    public async Task Compact_RecordsThatCarryTheIdTheirKeyHolds_LoseTheCopyAndReadBackTheSame()
    {
        using var directory = new TempDirectory("record-ids");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = new Dictionary<string, string>();
        using var store = DocumentStore.Open(options, DocumentCompressionOptions.Disabled);
        for (var n = 0; n < 300; n++)
        {
            var id = n % 3 == 0 ? $"Orders/{n}" : $"orders/{n}";
            var client = DocumentCompressionTests.Order(n);
            var result = await store.PutAsync(id, DocumentCompressionTests.Json(client));
            expected[id] = DocumentCompressionTests.Expected(client, result);
        }
        var before = RewriteWithIdsInline(store, expected.Keys);

        store.Compact();

        foreach (var (id, json) in expected)
        {
            DocumentCompressionTests.AssertReadsBack(store, id, json);
            var record = StoredRecord(store, id);
            var saved = id.StartsWith('o') ? 1 + Encoding.UTF8.GetByteCount(id) : 0;
            Assert.Equal(before[id] - saved, record.Length);
        }
        AssertEveryReadGives(store, "orders", "Orders/3");
        AssertEveryReadGives(store, "orders", "orders/4");
    }

    /// <summary>Rewrites each record as builds before ids were taken from keys wrote it, and returns the records' lengths.</summary>
    private static Dictionary<string, int> RewriteWithIdsInline(DocumentStore store, IEnumerable<string> ids)
    {
        var lengths = new Dictionary<string, int>();
        using var transaction = store.Environment.BeginWrite();
        var docs = transaction.OpenTree(DocumentStore.DocsTree)!;
        foreach (var id in ids)
        {
            var key = DocumentIds.Key(id);
            Assert.True(docs.TryGet(key, out var value));
            var stored = new Document(key, value.ToArray(), store.CollectionNames);
            // An empty key makes the header carry the id, as every record did before.
            var record = RecordLayout.With(store, stored, [], stored.BodyFlags, stored.DictionaryVersion, stored.RawLength, stored.StoredBody);
            docs.Put(key, record);
            lengths[id] = record.Length;
        }
        transaction.Commit();
        return lengths;
    }

    private static byte[] StoredRecord(DocumentStore store, string id)
    {
        using var transaction = store.Environment.BeginRead();
        Assert.True(transaction.OpenTree(DocumentStore.DocsTree)!.TryGet(DocumentIds.Key(id), out var value), $"{id} has no record");
        return value.ToArray();
    }

    /// <summary>Reads <paramref name="id"/> by id (in upper case too), by etag, by collection and by id prefix, and checks the id and the JSON's @id each gives.</summary>
    private static void AssertEveryReadGives(DocumentStore store, string collection, string id)
    {
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet(id.ToUpperInvariant(), out var byId), $"{id} is missing");
        Assert.Equal(id, byId.IdString);
        Assert.Equal(id, JsonId(byId));
        Assert.Equal(1, Count(reader.ByEtag(), id));
        Assert.Equal(1, Count(reader.ByCollection(collection), id));
        Assert.Equal(1, Count(reader.ByIdPrefix(id), id));
    }

    private static string? JsonId(Document document)
    {
        using var parsed = System.Text.Json.JsonDocument.Parse(document.Json.ToArray());
        return parsed.RootElement.GetProperty("@metadata").GetProperty("@id").GetString();
    }

    private static int Count(DocumentCursor cursor, string id)
    {
        var found = 0;
        while (cursor.MoveNext())
        {
            var document = cursor.Current;
            if (document.IdString == id)
            {
                found++;
                Assert.Equal(id, JsonId(document));
            }
        }
        return found;
    }
}
