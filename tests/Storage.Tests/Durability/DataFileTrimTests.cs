using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Durability;

public class DataFileTrimTests
{
    [Fact]
    public void Dispose_AfterEveryCommitIsFlushed_CutsTheDataFileBackToItsHighWaterMark()
    {
        using var directory = new TempDirectory("trim");
        var options = StorageOptions.ForPath(directory.Path);
        var value = new byte[3000];
        long allocated;
        long grownTo;
        using (var env = StorageEnvironment.Open(options))
        {
            for (var batch = 0; batch < 20; batch++)
            {
                using var tx = env.BeginWrite();
                var tree = tx.CreateTree("values");
                for (var i = 0; i < 100; i++)
                {
                    Random.Shared.NextBytes(value);
                    tree.Put(Keys.Of(batch * 100 + i), value);
                }
                tx.Commit();
                // A flush per batch grows the file step by step, as a running server's does, so it runs ahead of use.
                env.FlushToDataFile();
            }
            allocated = env.GetStats().AllocatedPages;
            grownTo = new FileInfo(Path.Combine(directory.Path, StorageEnvironment.DataFileName)).Length;
        }

        var trimmed = new FileInfo(Path.Combine(directory.Path, StorageEnvironment.DataFileName)).Length;
        Assert.True(grownTo > allocated * StorageLimits.PageSize, $"the file ({grownTo} bytes) should have grown past its {allocated} pages in use for the test to mean anything");
        Assert.Equal(allocated * StorageLimits.PageSize, trimmed);
        using (var reopened = StorageEnvironment.Open(options))
        {
            reopened.Verify();
            using var read = reopened.BeginRead();
            Assert.Equal(2000, read.OpenTree("values")!.Count);
        }
    }
}
