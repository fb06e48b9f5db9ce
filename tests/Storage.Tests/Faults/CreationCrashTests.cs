namespace Folio.Storage.Tests.Faults;

public class CreationCrashTests
{
    // Found by the power-loss test: the data file grew (and could be durable at that size) before its
    // header was written, so a crash while creating the environment left a file no open could read.
    [Theory]
    [InlineData(CrashStrategy.KeepAll)]
    [InlineData(CrashStrategy.DropAll)]
    [InlineData(CrashStrategy.Torn512)]
    public void Open_AfterACrashWhileCreatingTheEnvironment_CreatesItAfresh(CrashStrategy strategy)
    {
        var probe = new SimulatedPowerLossFileSystem();
        StorageEnvironment.Open(Options(probe)).SimulateCrash();
        Assert.True(probe.Operations > 0);

        for (var point = 1; point <= probe.Operations; point++)
        {
            var fileSystem = new SimulatedPowerLossFileSystem();
            fileSystem.CrashAfter(point, strategy, seed: point);
            StorageEnvironment.Open(Options(fileSystem)).SimulateCrash();

            using var env = StorageEnvironment.Open(Options(fileSystem.CrashImage));
            Assert.Equal(0, env.LastCommittedTransactionId);
            using (var tx = env.BeginWrite())
            {
                tx.CreateTree("t").Put([1], [2]);
                tx.Commit();
            }
            env.Verify();
        }
    }

    private static StorageOptions Options(Platform.IStorageFileSystem fileSystem) => new() { FileSystem = fileSystem, BackgroundFlush = false, JournalFileSize = 64 << 10 };
}
