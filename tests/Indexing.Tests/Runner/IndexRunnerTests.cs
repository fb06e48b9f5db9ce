using System.Text;
using Folio.Indexing.Runner;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Scheduling;
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

    [Fact]
    public async Task Run_WriteToAnotherStoreWhileAnIndexWorksThroughABacklog_IsIndexedBeforeTheBacklogIsDone()
    {
        // Six batches or more: they start at 1,024 changes and at most double.
        for (var i = 0; i < 8; i++)
            await PutAll("orders", 5_000, first: i * 5_000);
        using var scheduler = new WorkScheduler("test indexing", threads: 1);
        using var otherStore = DocumentStore.Open(StorageOptions.InMemory());
        var busyCommits = -1;
        RecordingProcessor? busyProcessor = null;
        var quietProcessor = new RecordingProcessor { Committing = _ => Volatile.Write(ref busyCommits, busyProcessor!.Committed.Count) };
        using var quiet = new IndexRunner("Quiet", Orders, otherStore, quietProcessor, NullLogger.Instance, scheduler: scheduler);
        // The busy index's first commit writes to the other store, as a client of another database would meanwhile.
        busyProcessor = new RecordingProcessor
        {
            Committing = batch =>
            {
                if (batch.Ordinal == 1)
                    otherStore.PutAsync("orders/1", PreparedDocument.Parse("{}"u8.ToArray())).GetAwaiter().GetResult();
            },
        };

        using var busy = new IndexRunner("Busy", Orders, _store, busyProcessor, NullLogger.Instance, scheduler: scheduler);
        await CaughtUp(quiet, 1);
        await CaughtUp(busy, _store.LastEtag);

        // One scheduler thread: the other store's index had its turn after a few of the backlog's, not after all of them.
        Assert.InRange(Volatile.Read(ref busyCommits), 1, busyProcessor.Committed.Count - 1);
    }

    [Fact]
    public async Task Run_ManyRunnersOnOneSchedulerThread_EachIndexesItsWrites()
    {
        using var scheduler = new WorkScheduler("test indexing", threads: 1);
        var stores = new DocumentStore[50];
        var runners = new IndexRunner[stores.Length];
        try
        {
            for (var i = 0; i < stores.Length; i++)
            {
                stores[i] = DocumentStore.Open(StorageOptions.InMemory());
                runners[i] = new IndexRunner($"Index{i}", Orders, stores[i], new RecordingProcessor(), NullLogger.Instance, scheduler: scheduler);
            }

            var writes = new Task[stores.Length];
            for (var i = 0; i < stores.Length; i++)
                writes[i] = stores[i].PutAsync($"orders/{i}", PreparedDocument.Parse("{}"u8.ToArray()));
            await Task.WhenAll(writes);

            foreach (var runner in runners)
                await CaughtUp(runner, 1);
        }
        finally
        {
            foreach (var runner in runners)
                runner?.Dispose();
            foreach (var store in stores)
                store?.Dispose();
        }
    }

    [Fact]
    public async Task Paused_WhileWritesCome_IndexesNothingUntilResumed()
    {
        var processor = new RecordingProcessor();
        using var runner = new IndexRunner("Test", Orders, _store, processor, NullLogger.Instance, startPaused: true);
        await PutAll("orders", 10);

        Assert.False(await runner.WaitForEtagAsync(_store.LastEtag, TimeSpan.FromMilliseconds(200)));
        Assert.Empty(processor.Committed);
        Assert.True(runner.Paused);

        runner.Paused = false;
        await CaughtUp(runner, _store.LastEtag);
        runner.Paused = true;
        await PutAll("orders", 5, first: 10);
        Assert.False(await runner.WaitForEtagAsync(_store.LastEtag, TimeSpan.FromMilliseconds(200)));

        runner.Paused = false;
        await CaughtUp(runner, _store.LastEtag);
        Assert.Equal(15, processor.Committed.Sum(batch => batch.Changes.Count));
    }
}
