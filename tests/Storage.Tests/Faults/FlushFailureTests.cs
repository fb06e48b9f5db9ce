using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Faults;

/// <summary>A device reporting a failed flush: the environment stops taking writes, keeps serving reads, and loses nothing acknowledged.</summary>
public class FlushFailureTests
{
    private const int Committed = 5;

    private static StorageOptions Options(Platform.IStorageFileSystem fileSystem) =>
        new() { FileSystem = fileSystem, BackgroundFlush = false, JournalFileSize = 64 << 10 };

    private static void CommitRounds(StorageEnvironment env, int count)
    {
        for (var round = 0; round < count; round++)
        {
            using var tx = env.BeginWrite();
            tx.CreateTree("t").Put(Keys.Of(round), Keys.Value(round, 100 + round * 3000));
            tx.Commit();
        }
    }

    private static void AssertRounds(ReadTransaction read, int count)
    {
        var tree = read.OpenTree("t")!;
        for (var round = 0; round < count; round++)
        {
            Assert.True(tree.TryGet(Keys.Of(round), out var value), $"round {round} is missing");
            Assert.True(value.SequenceEqual(Keys.Value(round, 100 + round * 3000)), $"round {round} holds other bytes");
        }
    }

    /// <summary>After the restart the failed commit may be there (its record was written, only not confirmed durable) or not; every earlier one is.</summary>
    private static void AssertRecovered(Platform.IStorageFileSystem fileSystem)
    {
        using var env = StorageEnvironment.Open(Options(fileSystem));
        Assert.InRange(env.LastCommittedTransactionId, Committed, Committed + 1);
        using (var read = env.BeginRead())
        {
            AssertRounds(read, Committed);
            Assert.Equal(env.LastCommittedTransactionId == Committed + 1, read.OpenTree("t")!.Contains(Keys.Of(Committed)));
        }
        env.Verify();
        CommitRounds(env, Committed + 3);
        env.Verify();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Commit_JournalFlushFails_ThrowsAndRefusesEveryLaterWriteButKeepsReads(bool powerLoss)
    {
        var fileSystem = new SimulatedPowerLossFileSystem();
        var env = StorageEnvironment.Open(Options(fileSystem));
        CommitRounds(env, Committed);
        using var before = env.BeginRead();

        fileSystem.FailNextFlush(name => name.EndsWith(".journal", StringComparison.Ordinal));
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("t").Put(Keys.Of(Committed), [1, 2, 3]);
            Assert.Throws<EnvironmentFailedException>(tx.Commit);
        }

        Assert.Throws<EnvironmentFailedException>(() => env.BeginWrite());
        await Assert.ThrowsAsync<EnvironmentFailedException>(async () => await env.BeginWriteAsync());
        await Assert.ThrowsAsync<EnvironmentFailedException>(() => env.Merger.EnqueueAsync(tx => tx.CreateTree("t").Put([9], [9])));
        Assert.Equal(Committed, env.LastCommittedTransactionId);
        AssertRounds(before, Committed);
        using (var read = env.BeginRead())
        {
            AssertRounds(read, Committed);
            Assert.False(read.OpenTree("t")!.Contains(Keys.Of(Committed)));
        }
        env.Verify();

        if (powerLoss)
        {
            before.Dispose();
            env.SimulateCrash();
            AssertRecovered(fileSystem.CrashNow(CrashStrategy.DropAll, seed: 1));
        }
        else
        {
            before.Dispose();
            env.Dispose();
            AssertRecovered(fileSystem);
        }
    }

    [Fact]
    public void FlushToDataFile_DataFileSyncFails_ThrowsRefusesWritesAndRecoversEveryCommitFromTheJournal()
    {
        var fileSystem = new SimulatedPowerLossFileSystem();
        var env = StorageEnvironment.Open(Options(fileSystem));
        CommitRounds(env, Committed);

        fileSystem.FailNextFlush(name => name == StorageEnvironment.DataFileName);
        Assert.Throws<EnvironmentFailedException>(env.FlushToDataFile);
        Assert.Throws<EnvironmentFailedException>(() => env.BeginWrite());
        using (var read = env.BeginRead())
            AssertRounds(read, Committed);
        env.Verify();
        env.Dispose();

        var image = fileSystem.CrashNow(CrashStrategy.Torn4096, seed: 2);
        using var recovered = StorageEnvironment.Open(Options(image));
        Assert.Equal(Committed, recovered.LastCommittedTransactionId);
        using (var read = recovered.BeginRead())
            AssertRounds(read, Committed);
        recovered.Verify();
    }
}
