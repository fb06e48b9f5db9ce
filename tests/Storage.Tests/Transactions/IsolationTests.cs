using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Transactions;

public class IsolationTests
{
    [Fact]
    public void Reader_DoesNotSeeLaterCommits_UntilItReopens()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("k"), Keys.Of("v1"));
            tx.Commit();
        }
        using var old = env.BeginRead();
        for (var round = 2; round <= 50; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.OpenTree("t")!;
            tree.Put(Keys.Of("k"), Keys.Of($"v{round}"));
            for (var i = 0; i < 200; i++)
                tree.Put(Keys.Of($"filler/{round}/{i}"), new byte[100]);
            tx.Commit();
        }
        env.FlushToDataFile();
        Assert.True(old.OpenTree("t")!.TryGet(Keys.Of("k"), out var seen));
        Assert.Equal("v1", Keys.Text(seen));
        Assert.Equal(1, old.OpenTree("t")!.Count);
        using var fresh = env.BeginRead();
        Assert.True(fresh.OpenTree("t")!.TryGet(Keys.Of("k"), out var latest));
        Assert.Equal("v50", Keys.Text(latest));
    }

    [Fact]
    public void Flusher_WithAnOldReader_DoesNotApplyPastItsSnapshot()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("k"), Keys.Of("old"));
            tx.Commit();
        }
        using var reader = env.BeginRead();
        using (var tx = env.BeginWrite())
        {
            tx.OpenTree("t")!.Put(Keys.Of("k"), Keys.Of("new"));
            tx.Commit();
        }
        env.FlushToDataFile();
        Assert.True(env.GetStats().LastFlushedTransactionId <= reader.Id);
        Assert.True(reader.OpenTree("t")!.TryGet(Keys.Of("k"), out var value));
        Assert.Equal("old", Keys.Text(value));
        reader.Dispose();
        env.FlushToDataFile();
        Assert.Equal(env.LastCommittedTransactionId, env.GetStats().LastFlushedTransactionId);
    }

    [Fact]
    public void Rollback_LeavesNothing()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("keep"), [1]);
            tx.Commit();
        }
        var committed = env.LastCommittedTransactionId;
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            for (var i = 0; i < 5000; i++)
                tree.Put(Keys.Of(i), new byte[200]);
            tree.Delete(Keys.Of("keep"));
            tx.CreateTree("other");
            tx.Rollback();
        }
        Assert.Equal(committed, env.LastCommittedTransactionId);
        using var read = env.BeginRead();
        Assert.Null(read.OpenTree("other"));
        Assert.Equal(1, read.OpenTree("t")!.Count);
        Assert.True(read.OpenTree("t")!.Contains(Keys.Of("keep")));
        env.Verify();
    }

    [Fact]
    public void DisposedTransactions_AndTheirTrees_Throw()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        tx.Commit();
        Assert.Throws<ObjectDisposedException>(() => tree.Put(Keys.Of("a"), [1]));
        Assert.Throws<ObjectDisposedException>(() => tx.Commit());
        tx.Dispose();

        var read = env.BeginRead();
        var copy = read;
        var readTree = read.OpenTree("t")!;
        read.Dispose();
        Assert.Throws<ObjectDisposedException>(() => copy.OpenTree("t"));
        Assert.Throws<ObjectDisposedException>(() => readTree.TryGet(Keys.Of("a"), out _));
        copy.Dispose();
    }

    [Fact]
    public void WriteThroughReadTransaction_Throws()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t");
            tx.Commit();
        }
        using var read = env.BeginRead();
        Assert.Throws<InvalidOperationException>(() => read.OpenTree("t")!.Put(Keys.Of("a"), [1]));
    }

    [Fact]
    public void SecondWriteTransaction_OnSameThread_Throws()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        using var tx = env.BeginWrite();
        Assert.Throws<InvalidOperationException>(() => env.BeginWrite());
    }

    [Fact]
    public async Task ConcurrentReaders_WhileWriterCommits_EachSeeAConsistentSnapshot()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory() with { FlushThresholdBytes = 64 * 1024 });
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 100; i++)
                tree.Put(Keys.Of(i), BitConverter.GetBytes(0L));
            tx.Commit();
        }
        using var stop = new CancellationTokenSource();
        var failures = 0;
        var readers = Enumerable.Range(0, 3).Select(_ => Task.Run(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                using var read = env.BeginRead();
                var tree = read.OpenTree("t")!;
                var cursor = tree.CreateCursor();
                long? version = null;
                for (var more = cursor.First(); more; more = cursor.MoveNext())
                {
                    var v = BitConverter.ToInt64(cursor.Value);
                    version ??= v;
                    if (v != version)
                        Interlocked.Increment(ref failures);
                }
            }
        })).ToArray();
        for (long round = 1; round <= 300; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.OpenTree("t")!;
            for (var i = 0; i < 100; i++)
                tree.Put(Keys.Of(i), BitConverter.GetBytes(round));
            tx.Commit();
        }
        stop.Cancel();
        await Task.WhenAll(readers);
        Assert.Equal(0, failures);
        env.Verify();
    }
}
