using System.Text;
using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Querying;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Querying;

/// <summary>
/// Every way an index goes away (delete, reset, a replaced definition swapped in, an auto index retired
/// behind a wider one or for idleness) while a searcher still reads it: the searcher keeps its snapshot,
/// the index refuses new searchers, and its files are deleted once the searcher ends.
/// </summary>
public sealed class IndexDropTests : IDisposable
{
    private const int Documents = 300;
    private readonly string _root = Path.Combine(Path.GetTempPath(), "folio-drop-" + Guid.NewGuid().ToString("N"));
    private readonly DocumentStore _store;
    private readonly IndexStore _indexes;

    public IndexDropTests()
    {
        _store = DocumentStore.Open(StorageOptions.ForPath(Path.Combine(_root, "data")));
        _indexes = new IndexStore(_store, Path.Combine(_root, "indexes"), NullLoggerFactory.Instance,
            new IndexStoreOptions { MaintenanceInterval = TimeSpan.FromHours(1), AutoIndexIdleTimeout = TimeSpan.FromHours(1) });
    }

    public void Dispose()
    {
        _indexes.Dispose();
        _store.Dispose();
        if (Directory.Exists(_root))
            Directory.Delete(_root, recursive: true);
    }

    private static IndexDefinition Definition(string json) => IndexDefinitionJson.Parse(JsonDocument.Parse(json).RootElement);

    private static readonly IndexDefinition Static = Definition("""{"Name":"Items/ByKind","Collections":["Items"],"Fields":{"Kind":{"Path":"Kind"}}}""");

    private async Task FillAsync()
    {
        for (var i = 0; i < Documents; i++)
            await _store.PutAsync($"items/{i}", PreparedDocument.Parse(Encoding.UTF8.GetBytes($$"""{"Kind":"k{{i % 3}}","Size":{{i}},"Color":"c{{i % 5}}"}""")));
    }

    private async Task<DocumentIndex> CaughtUpAsync(DocumentIndex index)
    {
        Assert.True(await index.WaitForEtagAsync(_store.LastEtag, TimeSpan.FromSeconds(30)));
        return index;
    }

    private async Task<DocumentIndex> AutoIndexAsync(string query)
    {
        await new QueryRunner(_store, _indexes).RunAsync(query, new QueryOptions { WaitForNonStaleResults = true });
        return await CaughtUpAsync(_indexes.All.MaxBy(i => i.Definition.Fields.Count)!);
    }

    /// <summary>Opens a searcher, drops the index the given way, and checks the searcher, the index and its files.</summary>
    private async Task AssertDropUnderSearcherAsync(DocumentIndex index, Action drop)
    {
        var directory = index.Directory;
        Assert.True(Directory.Exists(directory));
        Assert.True(index.TryOpenSearcher(out var searcher));
        var before = searcher!.EntryCount;
        Assert.Equal(Documents, before);

        drop();

        Assert.True(index.IsDisposed);
        Assert.False(index.TryOpenSearcher(out _));
        Assert.Throws<ObjectDisposedException>(() => index.OpenSearcher());
        Assert.False(index.Closed.IsCompleted, "the index's files were closed under an open searcher");
        // The searcher still reads its snapshot, through every structure a facet count touches.
        Assert.Equal(before, searcher.EntryCount);
        Assert.Equal(Documents, searcher.CountTerms(Queries.MatchAllQuery.Instance, "Kind").Sum(pair => pair.Value));
        Assert.False(Directory.Exists(directory), "a dropped index's directory keeps its name, which a new index may take");

        searcher.Dispose();
        await index.Closed.WaitAsync(TimeSpan.FromSeconds(30));
        await WaitForNoDroppedDirectoriesAsync();
    }

    private async Task WaitForNoDroppedDirectoriesAsync()
    {
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (Directory.GetDirectories(Path.Combine(_root, "indexes"), ".dropped-*").Length > 0)
        {
            Assert.True(DateTime.UtcNow < deadline, "a dropped index's files were not deleted after its last searcher ended");
            await Task.Delay(10);
        }
    }

    [Fact]
    public async Task Delete_UnderAnOpenSearcher_KeepsItReadable_AndDeletesTheFilesAfter()
    {
        await FillAsync();
        _indexes.Put([Static]);
        var index = await CaughtUpAsync(_indexes.Get(Static.Name)!);
        await AssertDropUnderSearcherAsync(index, () => Assert.True(_indexes.Delete(Static.Name)));
        Assert.Null(_indexes.Get(Static.Name));
    }

    [Fact]
    public async Task Reset_UnderAnOpenSearcher_KeepsItReadable_AndTheNewIndexRebuilds()
    {
        await FillAsync();
        _indexes.Put([Static]);
        var index = await CaughtUpAsync(_indexes.Get(Static.Name)!);
        await AssertDropUnderSearcherAsync(index, () => Assert.True(_indexes.Reset(Static.Name)));
        var rebuilt = await CaughtUpAsync(_indexes.Get(Static.Name)!);
        Assert.NotSame(index, rebuilt);
        Assert.Equal(Documents, rebuilt.EntryCount);
    }

    [Fact]
    public async Task ReplacedDefinition_SwappedInUnderAnOpenSearcher_KeepsTheOldOneReadable()
    {
        await FillAsync();
        _indexes.Put([Static]);
        var index = await CaughtUpAsync(_indexes.Get(Static.Name)!);
        _indexes.Put([Definition("""{"Name":"Items/ByKind","Collections":["Items"],"Fields":{"Kind":{"Path":"Kind"},"Color":{"Path":"Color"}}}""")]);
        await CaughtUpAsync(_indexes.Replacements[Static.Name]);
        await AssertDropUnderSearcherAsync(index, _indexes.MaintainOnce);
        Assert.Equal(2, _indexes.Get(Static.Name)!.Definition.Fields.Count);
    }

    [Fact]
    public async Task AutoIndexRetiredBehindAWiderOne_UnderAnOpenSearcher_KeepsItReadable()
    {
        await FillAsync();
        var narrow = await AutoIndexAsync("from Items where Kind = 'k1'");
        var wide = await AutoIndexAsync("from Items where Kind = 'k1' and Color = 'c2'");
        Assert.NotSame(narrow, wide);
        await AssertDropUnderSearcherAsync(narrow, _indexes.MaintainOnce);
        Assert.Same(wide, _indexes.All.Single());
    }

    [Fact]
    public async Task IdleAutoIndexRetired_UnderAnOpenSearcher_KeepsItReadable()
    {
        await FillAsync();
        using var idle = new IndexStore(_store, Path.Combine(_root, "indexes-idle"), NullLoggerFactory.Instance,
            new IndexStoreOptions { MaintenanceInterval = TimeSpan.FromHours(1), AutoIndexIdleTimeout = TimeSpan.Zero });
        await new QueryRunner(_store, idle).RunAsync("from Items where Kind = 'k2'", new QueryOptions { WaitForNonStaleResults = true });
        var index = await CaughtUpAsync(idle.All.Single());
        Assert.True(index.TryOpenSearcher(out var searcher));
        using (searcher)
        {
            idle.MaintainOnce();
            Assert.Empty(idle.All);
            Assert.Equal(Documents, searcher!.EntryCount);
        }
        await index.Closed.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public async Task WaitForEtag_OnADroppedIndex_ReturnsFalseAtOnce()
    {
        _indexes.Put([Static]);
        var index = _indexes.Get(Static.Name)!;
        var waiting = index.WaitForEtagAsync(long.MaxValue, TimeSpan.FromMinutes(5));
        Assert.True(_indexes.Delete(Static.Name));
        Assert.False(await waiting.WaitAsync(TimeSpan.FromSeconds(30)));
    }
}
