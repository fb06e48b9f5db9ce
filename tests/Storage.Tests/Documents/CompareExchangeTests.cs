using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Documents;

/// <summary>Compare-exchange entries: index checks, one index per transaction, durability, and cluster-wide batches.</summary>
public class CompareExchangeTests
{
    private static byte[] Value(string json) => Encoding.UTF8.GetBytes(json);

    private static PreparedDocument Json(string json) => PreparedDocument.Parse(Encoding.UTF8.GetBytes(json));

    [Fact]
    public async Task Put_IndexZero_CreatesOnlyWhenAbsent()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        var created = await store.PutCompareExchangeAsync("Emails/Ann", 0, Value("""{"Object":"users/1"}"""));
        var again = await store.PutCompareExchangeAsync("emails/ann", 0, Value("""{"Object":"users/2"}"""));

        Assert.True(created.Successful);
        Assert.Equal(1, created.Index);
        Assert.False(again.Successful);
        Assert.Equal(1, again.Index);
        Assert.Equal("""{"Object":"users/1"}""", Encoding.UTF8.GetString(again.Json!));
        using var reader = store.OpenReader();
        Assert.True(reader.TryGetCompareExchange("EMAILS/ANN", out var stored));
        Assert.Equal("Emails/Ann", stored!.Key);
        Assert.Equal(1, stored.Index);
    }

    [Fact]
    public async Task Put_StaleIndex_FailsAndKeepsTheNewerValue()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var first = await store.PutCompareExchangeAsync("k", 0, Value("""{"Object":1}"""));
        var second = await store.PutCompareExchangeAsync("k", first.Index, Value("""{"Object":2}"""));

        var stale = await store.PutCompareExchangeAsync("k", first.Index, Value("""{"Object":3}"""));
        var missing = await store.PutCompareExchangeAsync("nothing", 7, Value("""{"Object":4}"""));

        Assert.True(second.Successful);
        Assert.True(second.Index > first.Index);
        Assert.False(stale.Successful);
        Assert.Equal(second.Index, stale.Index);
        Assert.Equal("""{"Object":2}""", Encoding.UTF8.GetString(stale.Json!));
        Assert.False(missing.Successful);
        Assert.Equal(-1, missing.Index);
        using var reader = store.OpenReader();
        Assert.False(reader.TryGetCompareExchange("nothing", out _));
    }

    [Fact]
    public async Task Delete_ChecksTheIndex()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var put = await store.PutCompareExchangeAsync("k", 0, Value("""{"Object":"v"}"""));

        var wrong = await store.DeleteCompareExchangeAsync("k", put.Index + 1);
        var right = await store.DeleteCompareExchangeAsync("k", put.Index);

        Assert.False(wrong.Successful);
        Assert.Equal(put.Index, wrong.Index);
        Assert.True(right.Successful);
        Assert.True(right.Index > put.Index);
        Assert.Equal("""{"Object":"v"}""", Encoding.UTF8.GetString(right.Json!));
        using var reader = store.OpenReader();
        Assert.False(reader.TryGetCompareExchange("k", out _));
        Assert.Equal(0, reader.CountOfCompareExchange);
    }

    [Fact]
    public async Task StartingWith_PagesInKeyOrder()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        foreach (var key in new[] { "b/2", "a/1", "b/1", "b/3", "c" })
            await store.PutCompareExchangeAsync(key, 0, Value("""{"Object":null}"""));

        using var reader = store.OpenReader();
        var page = reader.CompareExchangeStartingWith("B/", 1, 5);

        Assert.Equal(["b/2", "b/3"], page.Select(v => v.Key));
        Assert.Equal(5, reader.CompareExchangeStartingWith("", 0, 100).Count);
    }

    [Theory]
    [InlineData("")]
    [InlineData("a\u0001b")]
    public async Task Put_UnusableKey_ThrowsAndWritesNothing(string key)
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        await Assert.ThrowsAsync<DocumentValidationException>(() => store.PutCompareExchangeAsync(key, 0, Value("{}")));
        await Assert.ThrowsAsync<DocumentValidationException>(() => store.PutCompareExchangeAsync(new string('k', 513), 0, Value("{}")));

        using var reader = store.OpenReader();
        Assert.Equal(0, reader.CountOfCompareExchange);
    }

    [Fact]
    public async Task Entries_SurviveReopen_AndIndexesKeepGrowing()
    {
        using var dir = new TempDirectory("cmpxchg");
        long last;
        using (var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path)))
        {
            await store.PutCompareExchangeAsync("a", 0, Value("""{"Object":"x"}"""));
            last = (await store.PutCompareExchangeAsync("b", 0, Value("""{"Object":"y"}"""))).Index;
        }

        using (var store = DocumentStore.Open(StorageOptions.ForPath(dir.Path)))
        {
            using (var reader = store.OpenReader())
            {
                Assert.True(reader.TryGetCompareExchange("b", out var b));
                Assert.Equal(last, b!.Index);
                Assert.Equal("""{"Object":"y"}""", Encoding.UTF8.GetString(b.Json));
                Assert.Equal(2, reader.CountOfCompareExchange);
            }
            var next = await store.PutCompareExchangeAsync("c", 0, Value("""{"Object":"z"}"""));
            Assert.True(next.Index > last);
        }
    }

    [Fact]
    public async Task ClusterBatch_FailedEntryCheck_WritesNothing()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        await store.PutCompareExchangeAsync("taken", 0, Value("""{"Object":1}"""));
        DocumentCommand[] documents = [new(DocumentCommandType.Put, "users/1", Json("""{"Name":"Ann"}"""), null)];

        var conflict = await Assert.ThrowsAsync<ClusterTransactionConflictException>(() =>
            store.ClusterBatchAsync(documents, [new CompareExchangeCommand(CompareExchangeCommandType.Put, "taken", 0, Value("""{"Object":2}"""))], atomicGuards: true));

        Assert.Equal("taken", conflict.Key);
        using var reader = store.OpenReader();
        Assert.False(reader.TryGet("users/1", out _));
        Assert.False(reader.TryGetCompareExchange(CompareExchangeEntries.AtomicGuardKey("users/1"), out _));
        Assert.Equal(1, reader.CountOfCompareExchange);
    }

    [Fact]
    public async Task ClusterBatch_WritesOneIndexForEntriesAndGuards()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());

        var result = await store.ClusterBatchAsync(
            [new(DocumentCommandType.Put, "users/1", Json("""{"Name":"Ann"}"""), null)],
            [new(CompareExchangeCommandType.Put, "emails/ann", 0, Value("""{"Object":"users/1"}"""))],
            atomicGuards: true);

        Assert.True(result.TransactionIndex > 0);
        Assert.Equal(result.TransactionIndex, result.CompareExchanges[0].Index);
        using var reader = store.OpenReader();
        Assert.True(reader.TryGetCompareExchange("rvn-atomic/users/1", out var guard));
        Assert.Equal(result.TransactionIndex, guard!.Index);
    }

    [Fact]
    public async Task ClusterBatch_DocumentChangedSinceLoaded_FailsWithConflict()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var created = await store.ClusterBatchAsync([new(DocumentCommandType.Put, "users/1", Json("""{"Name":"Ann"}"""), null)], [], atomicGuards: true);
        var loaded = created.Documents[0]!.ChangeVector;
        await store.ClusterBatchAsync([new(DocumentCommandType.Put, "users/1", Json("""{"Name":"Bo"}"""), loaded)], [], atomicGuards: true);

        await Assert.ThrowsAsync<ClusterTransactionConflictException>(() =>
            store.ClusterBatchAsync([new(DocumentCommandType.Delete, "users/1", null, loaded)], [], atomicGuards: true));
        // Not loaded at all: the guard says another cluster-wide batch wrote it.
        await Assert.ThrowsAsync<ClusterTransactionConflictException>(() =>
            store.ClusterBatchAsync([new(DocumentCommandType.Put, "users/1", Json("""{"Name":"Cy"}"""), null)], [], atomicGuards: true));

        using var reader = store.OpenReader();
        Assert.True(reader.TryGet("users/1", out var document));
        Assert.Contains("\"Bo\"", Encoding.UTF8.GetString(document.Json));
    }

    [Fact]
    public async Task ClusterBatch_DeleteRemovesTheGuard_WithoutGuardsNoneIsKept()
    {
        using var store = DocumentStore.Open(StorageOptions.InMemory());
        var created = await store.ClusterBatchAsync([new(DocumentCommandType.Put, "users/1", Json("{}"), null)], [], atomicGuards: true);
        await store.ClusterBatchAsync([new(DocumentCommandType.Delete, "users/1", null, created.Documents[0]!.ChangeVector)], [], atomicGuards: true);
        await store.ClusterBatchAsync([new(DocumentCommandType.Put, "users/2", Json("{}"), null)], [], atomicGuards: false);

        using var reader = store.OpenReader();
        Assert.Equal(0, reader.CountOfCompareExchange);
        Assert.True(reader.TryGet("users/2", out _));
    }
}
