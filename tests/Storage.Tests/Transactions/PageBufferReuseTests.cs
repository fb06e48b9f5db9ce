using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Transactions;

/// <summary>
/// Page buffers are reused by later write transactions; these check that a buffer is reused only
/// once nobody can read it: not while a reader still holds a span of a flushed version, and that
/// rolled-back and freed pages come back while the pool stays within its bound.
/// </summary>
public class PageBufferReuseTests
{
    private const int ValueSize = 1000;

    [Fact]
    public void FlushedVersion_KeepsItsBytes_WhileAReaderHoldsItAndWritersReuseBuffers()
    {
        using var dir = new TempDirectory("reuse");
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false });
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("k"), Filled(1));
            tx.Commit();
        }

        var reader = env.BeginRead();
        // The span points into the leaf's page version in the page table: the next flush removes it.
        Assert.True(reader.OpenTree("t")!.TryGet(Keys.Of("k"), out var held));
        env.FlushToDataFile();
        Assert.True(env.GetStats().RetiredPageBuffers > 0);

        for (var round = 2; round <= 30; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.OpenTree("t")!;
            tree.Put(Keys.Of("k"), Filled(round));
            for (var i = 0; i < 20; i++)
                tree.Put(Keys.Of($"filler/{round}/{i}"), Filled(round));
            tx.Commit();
            env.FlushToDataFile();
            Assert.True(IsFilled(held, 1), $"The held value changed in round {round}.");
        }

        reader.Dispose();
        env.FlushToDataFile();
        var stats = env.GetStats();
        Assert.Equal(0, stats.RetiredPageBuffers);
        Assert.True(stats.PooledPageBuffers > 0);
        env.Verify();
    }

    [Fact]
    public void FlushedVersion_KeepsItsBytes_WhileTheWriterHoldsItAndAllocatesPages()
    {
        using var dir = new TempDirectory("reuse-writer");
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false });
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("k"), Filled(1));
            tx.Commit();
        }

        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            Assert.True(tree.TryGet(Keys.Of("k"), out var held));
            // The flusher does not wait for the writer: this removes the version the writer is reading.
            env.FlushToDataFile();
            for (var i = 0; i < 50; i++)
                tree.Put(Keys.Of($"filler/{i}"), Filled(2));
            Assert.True(IsFilled(held, 1));
            tx.Commit();
        }
        env.Verify();
    }

    [Fact]
    public void Readers_HoldingSpans_SeeStableBytes_WhileTheFlusherRetiresAndWritersReuse()
    {
        using var dir = new TempDirectory("reuse-concurrent");
        var options = StorageOptions.ForPath(dir.Path) with { FlushThresholdBytes = 64 << 10, FlushInterval = TimeSpan.FromMilliseconds(1) };
        using var env = StorageEnvironment.Open(options);
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of("k"), Filled(1));
            tx.Commit();
        }

        var stop = 0;
        var failures = 0;
        var reads = 0;
        var readers = new Thread[2];
        for (var r = 0; r < readers.Length; r++)
        {
            readers[r] = new Thread(() =>
            {
                while (Volatile.Read(ref stop) == 0)
                {
                    using var read = env.BeginRead();
                    if (!read.OpenTree("t")!.TryGet(Keys.Of("k"), out var value) || value.Length != ValueSize)
                    {
                        Interlocked.Increment(ref failures);
                        continue;
                    }
                    var first = value[0];
                    for (var pass = 0; pass < 20; pass++)
                    {
                        if (value.IndexOfAnyExcept(first) >= 0)
                            Interlocked.Increment(ref failures);
                    }
                    Interlocked.Increment(ref reads);
                }
            });
            readers[r].Start();
        }

        var rounds = 0;
        var deadline = Environment.TickCount64 + 60_000;
        // The flusher is shared by every environment of the process (other tests' too): writing goes on until it has
        // flushed here at least once, so the readers always overlap retired versions.
        while ((rounds < 400 || Volatile.Read(ref reads) < 1000 || env.GetStats().LastFlushedTransactionId <= 1) && Environment.TickCount64 < deadline)
        {
            rounds++;
            using var tx = env.BeginWrite();
            var tree = tx.OpenTree("t")!;
            tree.Put(Keys.Of("k"), Filled(rounds));
            for (var i = 0; i < 8; i++)
                tree.Put(Keys.Of($"filler/{rounds % 50}/{i}"), Filled(rounds));
            tx.Commit();
        }
        Volatile.Write(ref stop, 1);
        foreach (var thread in readers)
            Assert.True(thread.Join(TimeSpan.FromSeconds(30)));

        Assert.Equal(0, failures);
        Assert.True(reads >= 1000);
        Assert.True(env.GetStats().LastFlushedTransactionId > 1);
        env.Verify();
    }

    [Fact]
    public void Rollback_ReturnsDirtyPagesToThePool()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory() with { BackgroundFlush = false });
        var before = env.GetStats().PooledPageBuffers;
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 100; i++)
                tree.Put(Keys.Of(i), Filled(i));
            tx.Rollback();
        }
        var afterRollback = env.GetStats().PooledPageBuffers;
        Assert.True(afterRollback >= before + 10, $"{afterRollback} pooled after the rollback, {before} before.");

        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("t");
            for (var i = 0; i < 100; i++)
                tree.Put(Keys.Of(i), Filled(i));
            tx.Commit();
        }
        Assert.True(env.GetStats().PooledPageBuffers < afterRollback);
        using var read = env.BeginRead();
        Assert.Equal(100, read.OpenTree("t")!.Count);
        read.Dispose();
        env.Verify();
    }

    [Fact]
    public void FreePage_OfAPageWrittenInTheSameTransaction_ReturnsItsBufferWhenTheTransactionEnds()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory() with { BackgroundFlush = false });
        var before = env.GetStats().PooledPageBuffers;
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("scratch");
            for (var i = 0; i < 100; i++)
                tree.Put(Keys.Of(i), Filled(i));
            Assert.True(tx.DeleteTree("scratch"));
            Assert.Equal(before, env.GetStats().PooledPageBuffers);
            tx.Commit();
        }
        Assert.True(env.GetStats().PooledPageBuffers >= before + 10);
        env.Verify();
    }

    [Fact]
    public void Pool_UnderManyCommitsAndFlushes_StaysWithinItsCapacity()
    {
        using var dir = new TempDirectory("reuse-bounded");
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false, PageBufferPoolPages = 16 };
        using var env = StorageEnvironment.Open(options);
        for (var round = 0; round < 20; round++)
        {
            using (var tx = env.BeginWrite())
            {
                var tree = tx.CreateTree("t");
                for (var i = 0; i < 200; i++)
                    tree.Put(Keys.Of(round * 200 + i), Filled(round));
                tx.Commit();
            }
            env.FlushToDataFile();
            var stats = env.GetStats();
            Assert.InRange(stats.PooledPageBuffers, 0, 16);
            Assert.Equal(0, stats.RetiredPageBuffers);
        }
        Assert.Equal(16, env.GetStats().PooledPageBuffers);
        env.Verify();
    }

    [Fact]
    public void Trim_DropsBuffersNotRentedSinceThePreviousTrim()
    {
        var pool = new PageBufferPool(64);
        for (var i = 0; i < 10; i++)
            pool.Return(new byte[StorageLimits.PageSize]);
        pool.Return(new byte[2 * StorageLimits.PageSize]);
        Assert.Equal(10, pool.Count);

        pool.Rent();
        pool.Trim();
        Assert.Equal(9, pool.Count);
        pool.Rent();
        pool.Rent();
        pool.Return(new byte[StorageLimits.PageSize]);
        pool.Trim();
        Assert.Equal(1, pool.Count);
    }

    [Fact]
    public void Trim_DropsEveryBuffer_WhenNothingWasRentedSinceThePreviousTrim()
    {
        var pool = new PageBufferPool(64);
        for (var i = 0; i < 10; i++)
            pool.Return(new byte[StorageLimits.PageSize]);

        pool.Trim();
        Assert.Equal(0, pool.Count);
    }

    private static byte[] Filled(int round)
    {
        var value = new byte[ValueSize];
        value.AsSpan().Fill((byte)(round % 250 + 1));
        return value;
    }

    private static bool IsFilled(ReadOnlySpan<byte> value, int round) => value.Length == ValueSize && value.IndexOfAnyExcept((byte)(round % 250 + 1)) < 0;
}
