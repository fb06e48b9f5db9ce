using System.Text;
using Folio.Indexing.Runner;
using Folio.Storage;
using Folio.Storage.Documents;
using Microsoft.Extensions.Logging.Abstractions;

namespace Folio.Indexing.Tests.Runner;

/// <summary>The index runner on a real document store, with a processor that records what it is given.</summary>
public sealed class IndexRunnerTests : IDisposable
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);
    private static readonly string[] Orders = ["Orders"];

    private readonly DocumentStore _store = DocumentStore.Open(StorageOptions.InMemory());

    public void Dispose() => _store.Dispose();

    private IndexRunner Start(RecordingProcessor processor, IReadOnlyList<string>? collections = null) =>
        new("Test", collections ?? Orders, _store, processor, NullLogger.Instance);

    private Task<IReadOnlyList<WriteResult?>> PutAll(string prefix, int count, int first = 0)
    {
        var commands = new List<DocumentCommand>(count);
        for (var i = first; i < first + count; i++)
            commands.Add(new DocumentCommand(DocumentCommandType.Put, $"{prefix}/{i}", PreparedDocument.Parse(Encoding.UTF8.GetBytes($$"""{"N":{{i}}}""")), null));
        return _store.BatchAsync(commands);
    }

    private static async Task CaughtUp(IndexRunner runner, long etag) =>
        Assert.True(await runner.WaitForEtagAsync(etag, Timeout), $"the runner did not reach etag {etag}; it is at {runner.ProcessedEtag}");

    /// <summary>What the committed batches leave in an index: the last change of each id, in commit order.</summary>
    private static Dictionary<string, bool> Indexed(RecordingProcessor processor)
    {
        var present = new Dictionary<string, bool>();
        foreach (var batch in processor.Committed)
        {
            foreach (var change in batch.Changes)
                present[change.TrimStart('-')] = !change.StartsWith('-');
        }
        return present;
    }

    [Fact]
    public async Task Run_Backlog_CommitsEveryChangeOfItsCollectionsOnce_InEtagOrder()
    {
        await PutAll("orders", 3_000);
        await PutAll("users", 500);
        await _store.BatchAsync([new DocumentCommand(DocumentCommandType.Delete, "orders/7", null, null), new DocumentCommand(DocumentCommandType.Delete, "users/7", null, null)]);
        await PutAll("orders", 10, first: 3_000);
        var processor = new RecordingProcessor();

        using var runner = Start(processor);
        await CaughtUp(runner, _store.LastEtag);

        var etags = processor.Committed.SelectMany(batch => batch.Etags).ToList();
        Assert.Equal(etags.Order(), etags);
        Assert.Equal(etags.Distinct().Count(), etags.Count);
        Assert.Equal(3_010, etags.Count);
        var indexed = Indexed(processor);
        Assert.Equal(3_009, indexed.Count(entry => entry.Value));
        Assert.False(indexed["orders/7"]);
        Assert.DoesNotContain(indexed.Keys, id => id.StartsWith("users/", StringComparison.Ordinal));
        var upTo = processor.Committed.Select(batch => batch.UpToEtag).ToList();
        Assert.Equal(upTo.Order(), upTo);
        Assert.Equal(_store.LastEtag, processor.StoredEtag);
    }

    [Fact]
    public async Task Run_Backlog_ReportsAnEtagProcessed_OnlyOnceWhatBatchesHeldBackIsPublished()
    {
        for (var i = 0; i < 8; i++)
            await PutAll("orders", 1_000, first: i * 1_000);
        await PutAll("users", 10);
        var processor = new RecordingProcessor { Defers = true };

        using var runner = Start(processor);
        processor.ProcessedEtagProbe = () => runner.ProcessedEtag;
        await CaughtUp(runner, _store.LastEtag);

        var (deferred, publications) = processor.Deferrals;
        Assert.True(deferred > 0, "no batch was told more changes follow");
        Assert.True(publications <= 1, $"a backlog read at once was published {publications} times");
        Assert.Equal(processor.StoredEtag, processor.PublishedEtag);
        Assert.Empty(processor.ReportedAheadOfPublished);
        Assert.Equal(8_000, Indexed(processor).Count);

        await PutAll("orders", 5, first: 9_000);
        await CaughtUp(runner, _store.LastEtag);
        Assert.Equal(_store.LastEtag, processor.PublishedEtag);
    }

    [Fact]
    public async Task Run_WritesAfterItCaughtUp_AreCommittedAsTheyCome()
    {
        var processor = new RecordingProcessor();
        using var runner = Start(processor);
        await CaughtUp(runner, 0);

        for (var round = 0; round < 5; round++)
        {
            await PutAll("orders", 3, first: round * 3);
            await CaughtUp(runner, _store.LastEtag);
        }

        Assert.Equal(15, Indexed(processor).Count);
        Assert.Equal(_store.LastEtag, processor.StoredEtag);
    }

    [Fact]
    public async Task Run_CommitsOfOtherCollections_OnlyMoveTheProcessedEtag()
    {
        var processor = new RecordingProcessor();
        using var runner = Start(processor);
        await PutAll("orders", 5);
        await CaughtUp(runner, _store.LastEtag);
        var commits = processor.Committed.Count;

        for (var i = 0; i < 20; i++)
            await PutAll("users", 2, first: i * 2);
        await CaughtUp(runner, _store.LastEtag);

        Assert.Equal(commits, processor.Committed.Count);
        Assert.Equal(_store.LastEtag, runner.ProcessedEtag);
        Assert.Equal(5, processor.StoredEtag);
    }

    [Fact]
    public async Task Run_AfterARestart_ResumesFromTheEtagTheProcessorStored()
    {
        await PutAll("orders", 10);
        var stored = _store.LastEtag;
        await PutAll("orders", 5, first: 10);
        var processor = new RecordingProcessor(stored);

        using var runner = Start(processor);
        await CaughtUp(runner, _store.LastEtag);

        Assert.Equal(["orders/10", "orders/11", "orders/12", "orders/13", "orders/14"], processor.Committed.SelectMany(batch => batch.Changes));
    }

    [Fact]
    public async Task Run_Backlog_PreparesTheNextBatchOnAnotherThread_WhileTheCurrentOneCommits()
    {
        await PutAll("orders", 5_000);
        using var gate = new ManualResetEventSlim(false);
        var processor = new RecordingProcessor { CommitGate = gate };

        using var runner = Start(processor);
        try
        {
            Assert.True(processor.LaterBatchFilled.Wait(Timeout), "no second batch was prepared while the first was committing");
            Assert.Empty(processor.Committed);
        }
        finally
        {
            gate.Set();
        }
        await CaughtUp(runner, _store.LastEtag);

        var batches = processor.Committed.ToList();
        Assert.Equal(5_000, batches.Sum(batch => batch.Changes.Count));
        Assert.NotEqual(batches[0].PreparedOn, batches[1].PreparedOn);
    }

    [Fact]
    public async Task Run_FullBatchesCommittedQuickly_GrowTheBatchSize()
    {
        await PutAll("orders", 12_000);
        var processor = new RecordingProcessor();

        using var runner = Start(processor);
        await CaughtUp(runner, _store.LastEtag);

        var sizes = runner.RecentBatches.Select(batch => batch.Documents).ToList();
        Assert.Equal(1_024, sizes[0]);
        Assert.True(sizes.Max() > 1_024, $"the batches did not grow: {string.Join(", ", sizes)}");
        Assert.Equal(12_000, sizes.Sum());
    }

    [Fact]
    public async Task Run_DocumentTheBatchRejects_IsRecorded_AndIndexingGoesOn()
    {
        await PutAll("orders", 5);
        var processor = new RecordingProcessor { Rejected = ["orders/2"] };

        using var runner = Start(processor);
        await CaughtUp(runner, _store.LastEtag);

        var (recent, total) = runner.Errors;
        Assert.Equal(1, total);
        Assert.Equal("orders/2", Assert.Single(recent).DocumentId);
        var stats = Assert.Single(runner.RecentBatches);
        Assert.Equal(4, stats.Documents);
        Assert.Equal(1, stats.Deletes);
        Assert.Equal(_store.LastEtag, stats.UpToEtag);
    }

    [Fact]
    public async Task Run_CommitThrows_StopsWithTheFailure_AndWaitersAreToldTheEtagWasNotReached()
    {
        var processor = new RecordingProcessor { CommitFailure = new IOException("disk gone") };
        using var runner = Start(processor);
        var waiting = runner.WaitForEtagAsync(1, Timeout);

        await PutAll("orders", 1);

        Assert.False(await waiting);
        Assert.IsType<IOException>(runner.Failure);
        Assert.Equal(0, runner.ProcessedEtag);
    }

    [Fact]
    public async Task Dispose_WakesWaiters_AndDisposesTheProcessorOnce()
    {
        var processor = new RecordingProcessor();
        var runner = Start(processor);
        var waiting = runner.WaitForEtagAsync(1_000, Timeout);
        Assert.False(waiting.IsCompleted);

        runner.Dispose();
        runner.Dispose();

        Assert.False(await waiting.WaitAsync(Timeout));
        Assert.True(runner.IsDisposed);
        Assert.Equal(1, processor.Disposals);
        Assert.False(await runner.WaitForEtagAsync(1_000, Timeout));
    }

    [Fact]
    public async Task IsStale_OnlyChangesOfItsCollectionsAfterTheEtag_MakeItStale()
    {
        var processor = new RecordingProcessor();
        using var runner = Start(processor);
        await PutAll("orders", 2);
        var ordersEtag = _store.LastEtag;
        await PutAll("users", 2);

        using (var reader = _store.OpenReader())
        {
            Assert.True(runner.IsStale(reader, 0));
            Assert.True(runner.IsStale(reader, ordersEtag - 1));
            Assert.False(runner.IsStale(reader, ordersEtag));
        }

        await _store.DeleteAsync("orders/0");
        using (var reader = _store.OpenReader())
            Assert.True(runner.IsStale(reader, ordersEtag));
    }
}
