using System.Text;
using System.Text.Json;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

public class DocumentStoreTests
{
    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    private static JsonElement Load(DocumentStore store, string id)
    {
        using var reader = store.OpenReader();
        Assert.True(reader.TryGet(id, out var doc), $"{id} is missing");
        return JsonDocument.Parse(doc.Json.ToArray()).RootElement.Clone();
    }

    [Fact]
    public async Task Put_ThenGet_ReturnsTheDocumentWithStoreMetadata()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var result = await store.PutAsync("Users/1", Json("""{"Name":"Ada","Tags":["x",{"a":1}],"@metadata":{"Custom":"keep","@id":"ignored"}}"""));
        Assert.Equal("Users/1", result.Id);
        Assert.Equal("Users", result.Collection);
        Assert.StartsWith("A:", result.ChangeVector);

        var doc = Load(store, "users/1");
        Assert.Equal("Ada", doc.GetProperty("Name").GetString());
        Assert.Equal(2, doc.GetProperty("Tags").GetArrayLength());
        var metadata = doc.GetProperty("@metadata");
        Assert.Equal("keep", metadata.GetProperty("Custom").GetString());
        Assert.Equal("Users/1", metadata.GetProperty("@id").GetString());
        Assert.Equal("Users", metadata.GetProperty("@collection").GetString());
        Assert.Equal(result.ChangeVector, metadata.GetProperty("@change-vector").GetString());
        Assert.True(DateTime.TryParse(metadata.GetProperty("@last-modified").GetString(), out _));
    }

    [Fact]
    public async Task Put_IdsDifferingInCase_AreTheSameDocument_KeepingLatestCasing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("Orders/1", Json("""{"v":1}"""));
        await store.PutAsync("ORDERS/1", Json("""{"v":2}"""));
        using var reader = store.OpenReader();
        Assert.Equal(1, reader.CountOfDocuments);
        Assert.True(reader.TryGet("orders/1", out var doc));
        Assert.Equal("ORDERS/1", doc.IdString);
        Assert.Equal(1, reader.CountInCollection("orders"));
    }

    [Fact]
    public async Task Put_CollectionFromMetadataOrIdOrEmpty()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        Assert.Equal("Companies", (await store.PutAsync("x/1", Json("""{"@metadata":{"@collection":"Companies"}}"""))).Collection);
        Assert.Equal("orders", (await store.PutAsync("orders/1", Json("{}"))).Collection);
        Assert.Equal("@empty", (await store.PutAsync("plain", Json("{}"))).Collection);
        using var reader = store.OpenReader();
        var collections = reader.Collections();
        Assert.Equal(1, collections["companies"]);
        Assert.Equal(1, collections["Orders"]);
        Assert.Equal(1, collections["@empty"]);
    }

    [Fact]
    public async Task Put_ServerGeneratedIds_AreUniqueAndIncreasing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("orders/2", Json("{}"));
        var ids = new List<string>();
        for (var i = 0; i < 5; i++)
            ids.Add((await store.PutAsync(i % 2 == 0 ? "orders/" : "orders|", Json("{}"))).Id);
        Assert.Equal(["orders/1", "orders/3", "orders/4", "orders/5", "orders/6"], ids);
    }

    [Fact]
    public async Task Put_WithStaleChangeVector_ThrowsConcurrencyAndWritesNothing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var first = await store.PutAsync("a", Json("""{"v":1}"""));
        var second = await store.PutAsync("a", Json("""{"v":2}"""), first.ChangeVector);
        var error = await Assert.ThrowsAsync<ConcurrencyException>(() => store.PutAsync("a", Json("""{"v":3}"""), first.ChangeVector));
        Assert.Equal(second.ChangeVector, error.Actual);
        Assert.Equal(2, Load(store, "a").GetProperty("v").GetInt32());
        await Assert.ThrowsAsync<ConcurrencyException>(() => store.PutAsync("missing", Json("{}"), first.ChangeVector));
    }

    [Fact]
    public async Task Put_WithEmptyChangeVector_WritesOnlyADocumentThatDoesNotExist()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        await store.PutAsync("a", Json("""{"v":1}"""), expectedChangeVector: string.Empty);
        var error = await Assert.ThrowsAsync<ConcurrencyException>(() => store.PutAsync("a", Json("""{"v":2}"""), expectedChangeVector: string.Empty));

        Assert.Equal(string.Empty, error.Expected);
        Assert.Equal(1, Load(store, "a").GetProperty("v").GetInt32());
    }

    [Fact]
    public async Task Batch_WithOneFailingCommand_LeavesNothing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var existing = await store.PutAsync("keep", Json("""{"v":1}"""));
        var commands = new List<DocumentCommand>
        {
            new(DocumentCommandType.Put, "new/1", Json("{}"), null),
            new(DocumentCommandType.Delete, "keep", null, null),
            new(DocumentCommandType.Put, "new/2", Json("{}"), "A:999-" + store.DatabaseId),
        };
        await Assert.ThrowsAsync<ConcurrencyException>(() => store.BatchAsync(commands));
        using var reader = store.OpenReader();
        Assert.Equal(1, reader.CountOfDocuments);
        Assert.True(reader.TryGet("keep", out var doc));
        Assert.Equal(existing.Etag, doc.Etag);
        Assert.Equal(existing.Etag, reader.LastEtag);
    }

    [Fact]
    public async Task Delete_LeavesATombstone_AndUpdatesCounts()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("users/1", Json("{}"));
        await store.PutAsync("users/2", Json("{}"));
        var deleted = await store.DeleteAsync("USERS/1");
        Assert.NotNull(deleted);
        Assert.Null(await store.DeleteAsync("users/1"));
        using var reader = store.OpenReader();
        Assert.False(reader.TryGet("users/1", out _));
        Assert.Equal(1, reader.CountInCollection("users"));
        var tombstones = reader.Tombstones(0, 10);
        var tombstone = Assert.Single(tombstones);
        Assert.Equal("users/1", tombstone.Id);
        Assert.Equal("users", tombstone.Collection);
        Assert.Equal(deleted!.Etag, tombstone.Etag);
        Assert.Single(reader.Tombstones(0, 10, "Users"));
        Assert.Empty(reader.Tombstones(deleted.Etag, 10));
    }

    [Fact]
    public async Task Cursors_ByPrefixEtagAndCollection_ListTheRightDocuments()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        for (var i = 1; i <= 30; i++)
            await store.PutAsync($"{(i % 3 == 0 ? "orders" : "users")}/{i:D2}", Json($$"""{"n":{{i}}}"""));
        await store.PutAsync("users/05", Json("""{"n":105}"""));
        using var reader = store.OpenReader();

        var prefix = new List<string>();
        var cursor = reader.ByIdPrefix("USERS/0");
        while (cursor.MoveNext())
            prefix.Add(cursor.Current.IdString);
        Assert.Equal(["users/01", "users/02", "users/04", "users/05", "users/07", "users/08"], prefix);

        var etags = new List<long>();
        var byEtag = reader.ByEtag(25);
        while (byEtag.MoveNext())
            etags.Add(byEtag.Current.Etag);
        Assert.Equal([26, 27, 28, 29, 30, 31], etags);

        var orders = new List<string>();
        var byCollection = reader.ByCollection("Orders");
        while (byCollection.MoveNext())
            orders.Add(byCollection.Current.IdString);
        Assert.Equal(10, orders.Count);
        Assert.Equal("orders/03", orders[0]);

        var users = reader.ByCollection("users");
        Assert.Equal(20, users.Skip(100));
        Assert.False(users.MoveNext());
    }

    [Theory]
    [InlineData("")]
    [InlineData("[]")]
    [InlineData("42")]
    [InlineData("{\"a\":")]
    [InlineData("{\"a\":1} {}")]
    [InlineData("{\"a\":1,}")]
    [InlineData("{\"@metadata\":[]}")]
    [InlineData("{\"@metadata\":{\"@collection\":5}}")]
    [InlineData("{\"@metadata\":{},\"@metadata\":{}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"line\\nbreak\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"a\\u0001b\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"del\\u007f\"}}")]
    [InlineData("{\"@metadata\":{\"@collection\":\"half\\ud800\"}}")]
    public void Parse_BadDocuments_ThrowValidation(string json) =>
        Assert.Throws<DocumentValidationException>(() => Json(json));

    [Fact]
    public void Parse_InvalidUtf8AndDeepNesting_ThrowValidation()
    {
        Assert.Throws<DocumentValidationException>(() => PreparedDocument.Parse([(byte)'{', (byte)'"', 0xC3, 0x28, (byte)'"', (byte)':', (byte)'1', (byte)'}']));
        var deep = new StringBuilder("{\"a\":");
        for (var i = 0; i < 10_000; i++)
            deep.Append('[');
        Assert.Throws<DocumentValidationException>(() => Json(deep.ToString()));
    }

    [Theory]
    [InlineData("")]
    [InlineData("  ")]
    [InlineData("a\u0001b")]
    public async Task Put_BadIds_ThrowValidation(string id)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await Assert.ThrowsAsync<DocumentValidationException>(() => store.PutAsync(id, Json("{}")));
        await Assert.ThrowsAsync<DocumentValidationException>(() => store.PutAsync(new string('x', 600), Json("{}")));
        await Assert.ThrowsAsync<DocumentValidationException>(() => store.PutAsync("bad" + '\ud800', Json("{}")));
    }

    [Fact]
    public async Task Documents_SurviveReopen()
    {
        using var dir = new TempDirectory();
        string changeVector;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path)))
            changeVector = (await store.PutAsync("a/1", Json("""{"x":"y"}"""))).ChangeVector!;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path)))
        {
            Assert.Equal(changeVector, Load(store, "a/1").GetProperty("@metadata").GetProperty("@change-vector").GetString());
            Assert.EndsWith(store.DatabaseId, changeVector);
            var next = await store.PutAsync("a/2", Json("{}"));
            Assert.True(next.Etag > 1);
        }
    }
}
