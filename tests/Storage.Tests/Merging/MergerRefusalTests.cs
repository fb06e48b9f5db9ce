using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Merging;

/// <summary>
/// An operation refused because of what an earlier operation of the same merged transaction wrote must not be
/// answered before that write commits: the history checker (tests/Server.Tests/Histories) caught 409s for
/// compare-and-sets answered while readers still saw the version they expected, and a kill before the commit would
/// have left them refused by a write that never happened.
/// </summary>
public class MergerRefusalTests
{
    [Fact]
    public async Task Enqueue_OperationRefusedByEarlierWriteOfItsTransaction_FailsOnlyOnceThatWriteCommits()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory() with { MergerMaxDuration = TimeSpan.FromMinutes(1) });
        var holdFirst = new ManualResetEventSlim(false);
        var holdLast = new ManualResetEventSlim(false);
        var lastRunning = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var blocker = env.Merger.EnqueueAsync(_ => holdFirst.Wait());
        var write = env.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of("a"), [1]));
        var refused = env.Merger.EnqueueAsync(tx =>
        {
            if (tx.CreateTree("t").Contains(Keys.Of("a")))
                throw new InvalidOperationException("a exists");
            tx.CreateTree("t").Put(Keys.Of("a"), [2]);
        });
        var last = env.Merger.EnqueueAsync(_ =>
        {
            lastRunning.TrySetResult();
            holdLast.Wait();
        });
        holdFirst.Set();
        try
        {
            await AssertRefusalWaitsAsync(env, refused, lastRunning.Task);
        }
        finally
        {
            // Released whatever happens, or the merger's thread would hold the environment's disposal forever.
            holdLast.Set();
        }

        await Task.WhenAll(blocker, write, last).WaitAsync(TimeSpan.FromSeconds(30));
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => refused);
        Assert.Equal("a exists", error.Message);
        using var after = env.BeginRead();
        Assert.True(after.OpenTree("t")!.TryGet(Keys.Of("a"), out var value));
        Assert.Equal(1, value[0]);
    }

    [Fact]
    public async Task Enqueue_RefusalWhileTheEnvironmentFails_FailsTheBatchAndKeepsTheSchedulerServing()
    {
        using var failing = StorageEnvironment.Open(StorageOptions.InMemory() with { MergerMaxDuration = TimeSpan.FromMinutes(1) });
        var hold = new ManualResetEventSlim(false);
        var blocker = failing.Merger.EnqueueAsync(_ => hold.Wait());
        var write = failing.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of("a"), [1]));
        // The refusal's rerun must begin a new transaction, which a failed environment refuses.
        var refused = failing.Merger.EnqueueAsync(_ =>
        {
            failing.Fail(new IOException("simulated flush failure"));
            throw new InvalidOperationException("refused");
        });
        hold.Set();

        await Assert.ThrowsAnyAsync<Exception>(() => Task.WhenAll(blocker, write, refused).WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.True(blocker.IsFaulted && write.IsFaulted && refused.IsFaulted);
        Assert.IsType<EnvironmentFailedException>(write.Exception!.InnerException);

        // Regression: the exception left the turn and killed the shared commit thread (taking the process with it).
        using var other = StorageEnvironment.Open(StorageOptions.InMemory());
        await other.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of("b"), [2])).WaitAsync(TimeSpan.FromSeconds(30));
        using var read = other.BeginRead();
        Assert.True(read.OpenTree("t")!.Contains(Keys.Of("b")));
    }

    private static async Task AssertRefusalWaitsAsync(StorageEnvironment env, Task refused, Task lastRunning)
    {
        // The refusal has run (operations run in order) but the transaction holding "a" is still open.
        await lastRunning.WaitAsync(TimeSpan.FromSeconds(30));
        Assert.False(refused.IsCompleted, "The refusal was answered before the write it saw had committed.");
        using var before = env.BeginRead();
        Assert.False(before.OpenTree("t")?.Contains(Keys.Of("a")) ?? false);
    }
}
