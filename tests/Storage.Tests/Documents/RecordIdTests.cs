using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>
/// A record leaves out the id when the key it is stored under holds the same bytes (an id already in lower case),
/// and keeps it when the casing differs: every way of reading a document must give back the id as it was written.
/// (Records of formats before 3, which carried every id, lose the copy when they move to format 6: RecordMoveTests.)
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
