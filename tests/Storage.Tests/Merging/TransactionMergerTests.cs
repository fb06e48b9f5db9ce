using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Merging;

public class TransactionMergerTests
{
    [Fact]
    public async Task Enqueue_ManyConcurrentWriters_AllCommitInFewerTransactions()
    {
        using var dir = new TempDirectory();
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        var before = env.LastCommittedTransactionId;
        var writers = Enumerable.Range(0, 500).Select(i => Task.Run(() => env.Merger.EnqueueAsync(tx =>
            tx.CreateTree("t").Put(Keys.Of(i), Keys.Value(i, 1024))))).ToArray();
        await Task.WhenAll(writers);

        using var read = env.BeginRead();
        Assert.Equal(500, read.OpenTree("t")!.Count);
        var transactions = env.LastCommittedTransactionId - before;
        Assert.True(transactions < 500, $"500 operations took {transactions} transactions");
        Assert.Equal(transactions, env.Merger.MergedTransactions);
    }

    [Fact]
    public async Task Enqueue_FailingOperation_FailsAloneAndLeavesNoTrace()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        var gate = new ManualResetEventSlim(false);
        var blocker = env.Merger.EnqueueAsync(_ => gate.Wait());
        var first = env.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of("a"), [1]));
        var failing = env.Merger.EnqueueAsync(tx =>
        {
            tx.CreateTree("t").Put(Keys.Of("poison"), [2]);
            throw new InvalidOperationException("boom");
        });
        var last = env.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of("b"), [3]));
        gate.Set();

        await blocker;
        await first;
        await last;
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => failing);
        Assert.Equal("boom", error.Message);
        using var read = env.BeginRead();
        var tree = read.OpenTree("t")!;
        Assert.True(tree.Contains(Keys.Of("a")));
        Assert.True(tree.Contains(Keys.Of("b")));
        Assert.False(tree.Contains(Keys.Of("poison")));
        env.Verify();
    }

    [Fact]
    public async Task Enqueue_RacingTheEnvironmentsDisposal_IsAnsweredEitherWay()
    {
        // Regression: an operation that passed the stop check before the disposal's drain, and reached the queue
        // after it, was never run nor failed, and its caller waited forever.
        for (var round = 0; round < 200; round++)
        {
            var env = StorageEnvironment.Open(StorageOptions.InMemory());
            using var start = new Barrier(3);
            var writes = new Task<Task>[2];
            for (var w = 0; w < writes.Length; w++)
            {
                var writer = w;
                writes[w] = Task.Factory.StartNew(() =>
                {
                    start.SignalAndWait();
                    try
                    {
                        return env.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put(Keys.Of(writer), [1]));
                    }
                    catch (ObjectDisposedException e)
                    {
                        return Task.FromException(e);
                    }
                }, TaskCreationOptions.LongRunning);
            }
            start.SignalAndWait();
            env.Dispose();

            // Each write commits or fails as closed; one left waiting fails the wait with a TimeoutException.
            foreach (var write in writes)
            {
                var answer = await write.WaitAsync(TimeSpan.FromSeconds(30));
                try
                {
                    await answer.WaitAsync(TimeSpan.FromSeconds(30));
                }
                catch (ObjectDisposedException)
                {
                }
            }
        }
    }
}
