using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Transactions;

/// <summary>
/// Environments' page buffer pools let go into a spare pool and rent from it before allocating, so a database
/// written once and then quiet hands its page copies to the next one written instead of leaving them to the GC.
/// Each test gives its environments a spare pool of their own: the process's is shared with every other test.
/// </summary>
public class PageBufferSpareTests
{
    private const int ValueSize = 1000;

    [Fact]
    public void Trim_LetsGoIntoTheSparePool_AndRentTakesFromItBeforeAllocating()
    {
        var spare = new PageBufferPool(64);
        var pool = new PageBufferPool(64, spare);
        var buffers = new byte[10][];
        for (var i = 0; i < buffers.Length; i++)
        {
            buffers[i] = new byte[StorageLimits.PageSize];
            pool.Return(buffers[i]);
        }

        pool.Trim();
        Assert.Equal(0, pool.Count);
        Assert.Equal(10, spare.Count);

        var other = new PageBufferPool(64, spare);
        var rented = other.Rent();
        Assert.Contains(rented, buffers);
        Assert.Equal(9, spare.Count);
    }

    [Fact]
    public void Return_BeyondTheCapacity_GoesToTheSparePool_UpToItsOwnCapacity()
    {
        var spare = new PageBufferPool(3);
        var pool = new PageBufferPool(2, spare);
        for (var i = 0; i < 6; i++)
            pool.Return(new byte[StorageLimits.PageSize]);
        pool.Return(new byte[2 * StorageLimits.PageSize]);

        Assert.Equal(2, pool.Count);
        Assert.Equal(3, spare.Count);
    }

    [Fact]
    public void Write_InAnotherEnvironment_ReusesTheBuffersAQuietOneLetGoOf_AndBothReadBackTheirValues()
    {
        using var dir = new TempDirectory("spare");
        var spare = new PageBufferPool(4096);
        var options = StorageOptions.ForPath(Path.Combine(dir.Path, "a")) with { BackgroundFlush = false, SparePageBuffers = spare };
        using var first = StorageEnvironment.Open(options);
        using var second = StorageEnvironment.Open(options with { Path = Path.Combine(dir.Path, "b") });
        Write(first, 1);
        first.FlushToDataFile();
        Assert.True(first.GetStats().PooledPageBuffers > 10);

        // Two flusher rounds of a quiet environment: the first sees the write's rents, the second finds none since.
        first.PageBuffers.Trim();
        first.PageBuffers.Trim();
        Assert.Equal(0, first.GetStats().PooledPageBuffers);
        var spared = spare.Count;
        Assert.True(spared > 10, $"{spared} buffers in the spare pool.");

        Write(second, 2);
        Assert.True(spare.Count < spared, $"{spare.Count} buffers in the spare pool after the second environment wrote, {spared} before.");
        second.FlushToDataFile();

        Read(first, 1);
        Read(second, 2);
        first.Verify();
        second.Verify();
    }

    private static void Write(StorageEnvironment env, int round)
    {
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        for (var i = 0; i < 200; i++)
            tree.Put(Keys.Of(i), Filled(round));
        tx.Commit();
    }

    private static void Read(StorageEnvironment env, int round)
    {
        using var tx = env.BeginRead();
        var tree = tx.OpenTree("t")!;
        Assert.Equal(200, tree.Count);
        for (var i = 0; i < 200; i++)
        {
            Assert.True(tree.TryGet(Keys.Of(i), out var value));
            Assert.True(value.Length == ValueSize && value.IndexOfAnyExcept((byte)round) < 0, $"Value {i} of round {round} changed.");
        }
    }

    private static byte[] Filled(int round)
    {
        var value = new byte[ValueSize];
        value.AsSpan().Fill((byte)round);
        return value;
    }
}
