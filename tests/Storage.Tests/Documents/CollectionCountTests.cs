using System.Text;
using Folio.Storage.Documents;

namespace Folio.Storage.Tests.Documents;

/// <summary>Collection counts are kept per batch and written once at its end; they must read as if written per document.</summary>
public class CollectionCountTests
{
    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    private static DocumentCommand Put(string id, string collection) =>
        new(DocumentCommandType.Put, id, Json("{\"@metadata\":{\"@collection\":\"" + collection + "\"}}"), null);

    [Fact]
    public async Task Batch_CountsEachLowerCasedName_WhenNamesAreEqualIgnoringCaseButLowerCaseApart()
    {
        // "Λόγος" and "ΛΌΓΟΣ" compare equal ignoring case (both upper-case to ΛΌΓΟΣ) but lower-case to
        // "λόγος" and "λόγοσ": two collections, as the etag indexes keep them.
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.BatchAsync([Put("a/1", "Λόγος"), Put("b/1", "ΛΌΓΟΣ"), Put("a/2", "Λόγος")]);

        using var reader = store.OpenReader();
        Assert.Equal(2, reader.CountInCollection("Λόγος"));
        Assert.Equal(1, reader.CountInCollection("ΛΌΓΟΣ"));
    }

    [Fact]
    public async Task Batch_RenamesTheCollection_WhenItIsEmptiedAndRefilledInOneBatch()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutAsync("users/1", Json("""{"@metadata":{"@collection":"Users"}}"""));

        await store.BatchAsync([new DocumentCommand(DocumentCommandType.Delete, "users/1", null, null), Put("users/2", "USERS")]);

        using var reader = store.OpenReader();
        var collections = reader.Collections();
        Assert.Equal(["USERS"], collections.Keys);
        Assert.Equal(1, collections["USERS"]);
    }

    [Fact]
    public async Task Batch_RemovesTheCollection_WhenItsLastDocumentsAreDeleted()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.BatchAsync([Put("t/1", "Temp"), Put("t/2", "Temp"), Put("k/1", "Keep")]);

        await store.BatchAsync([new DocumentCommand(DocumentCommandType.Delete, "t/1", null, null), new DocumentCommand(DocumentCommandType.Delete, "t/2", null, null)]);

        using var reader = store.OpenReader();
        Assert.Equal(["Keep"], reader.Collections().Keys);
        Assert.Equal(0, reader.CountInCollection("Temp"));
    }

    [Fact]
    public async Task Batch_KeepsTheEtagSequence_AcrossBatchesAndAFailedOne()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var first = await store.BatchAsync([Put("e/1", "E"), Put("e/2", "E")]);
        await Assert.ThrowsAsync<ConcurrencyException>(() => store.BatchAsync([Put("e/3", "E"), new DocumentCommand(DocumentCommandType.Put, "e/1", Json("{}"), "A:999-bad")]));
        var second = await store.BatchAsync([Put("e/4", "E")]);

        Assert.Equal([1L, 2L], first.Select(r => r!.Etag));
        Assert.Equal(3, second[0]!.Etag);
        using var reader = store.OpenReader();
        Assert.Equal(3, reader.LastEtag);
        Assert.Equal(3, reader.CountInCollection("E"));
        Assert.False(reader.TryGet("e/3", out _));
    }
}
