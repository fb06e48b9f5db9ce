using Folio.Storage.Compaction;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Compaction;

public class CompactionTests
{
    [Fact]
    public void Compact_KeepsEveryTreeIdentical_AfterChurn()
    {
        using var dir = new TempDirectory("compact");
        SortedDictionary<string, string> before;
        using (var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)))
        {
            StorageDump.Churn(env, 6_000, seed: 1);
            before = StorageDump.Of(env);
            var result = env.Compact();

            Assert.Equal(before, StorageDump.Of(env));
            env.Verify();
            Assert.True(result.Entries > 0);
            Assert.Null(env.RunningCompaction);
        }
        using (var reopened = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)))
        {
            Assert.Equal(before, StorageDump.Of(reopened));
            reopened.Verify();
        }
        Assert.False(File.Exists(Path.Combine(dir.Path, CompactionFileSystem.DataFileName)));
    }

    [Fact]
    public void Compact_ShrinksTheDataFile_AfterHalfIsDeleted()
    {
        using var dir = new TempDirectory("compact");
        var dataFile = Path.Combine(dir.Path, "data.folio");
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        StorageDump.Churn(env, 20_000, seed: 2);
        env.FlushToDataFile();

        var result = env.Compact();

        Assert.Equal(new FileInfo(dataFile).Length, result.SizeAfter);
        Assert.True(result.ShareReturned >= 0.4, $"returned {result.ShareReturned:P1} ({result.SizeBefore} -> {result.SizeAfter} bytes)");
        env.Verify();
    }

    [Fact]
    public void Compact_AnswersReads_WhileItCopiesAndAfterTheSwap()
    {
        using var dir = new TempDirectory("compact");
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        StorageDump.Churn(env, 8_000, seed: 3);
        var expected = ReadDoc(env, 1);
        Assert.NotNull(expected);
        var oldSnapshot = env.BeginRead();
        var stop = 0;
        long reads = 0;
        Exception? failure = null;
        var reader = new Thread(() =>
        {
            try
            {
                while (Volatile.Read(ref stop) == 0)
                {
                    Assert.Equal(expected, ReadDoc(env, 1));
                    Assert.Null(ReadDoc(env, 2));
                    Interlocked.Increment(ref reads);
                }
            }
            catch (Exception e)
            {
                failure = e;
            }
        });
        reader.Start();
        var readsWhileCopying = false;
        env.Compact(progress =>
        {
            if (progress.Phase != CompactionPhase.Copying || readsWhileCopying)
                return;
            var seen = Interlocked.Read(ref reads);
            readsWhileCopying = SpinWait.SpinUntil(() => Interlocked.Read(ref reads) > seen + 10 || failure is not null, TimeSpan.FromSeconds(10)) && failure is null;
        });
        Volatile.Write(ref stop, 1);
        reader.Join();

        Assert.Null(failure);
        Assert.True(readsWhileCopying, "no read completed while the compaction copied");
        // A snapshot taken before the swap still reads the old file.
        Assert.True(oldSnapshot.OpenTree("docs")!.TryGet(Keys.Of("docs/0000001"), out var old));
        Assert.Equal(expected, old.ToArray());
        oldSnapshot.Dispose();
        env.DisposeUnreadRetiredPagers();
        env.Verify();
    }

    [Fact]
    public void Compact_KeepsEveryWrite_CommittedWhileItRuns()
    {
        using var dir = new TempDirectory("compact");
        SortedDictionary<string, string> after;
        using (var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)))
        {
            StorageDump.Churn(env, 8_000, seed: 4);
            var stop = 0;
            var written = 0;
            Exception? failure = null;
            var writer = new Thread(() =>
            {
                try
                {
                    for (var i = 0; Volatile.Read(ref stop) == 0; i++)
                    {
                        using var tx = env.BeginWrite();
                        tx.CreateTree("docs").Put(Keys.Of($"late/{i:D6}"), Keys.Value(i, 300));
                        tx.OpenTree("docs")!.Delete(Keys.Of($"docs/{(i * 2 + 1) % 8_000:D7}"));
                        if (i % 50 == 0)
                            tx.CreateTree($"made-{i}").Put(Keys.Of("k"), Keys.Of(i));
                        if (i % 50 == 25)
                            tx.DeleteTree($"made-{i - 25}");
                        tx.Commit();
                        Volatile.Write(ref written, i + 1);
                    }
                }
                catch (Exception e)
                {
                    failure = e;
                }
            });
            writer.Start();
            var result = env.Compact(progress =>
            {
                // Holds the copy until writes have happened after its snapshot, so the catch-up has work to do.
                if (progress.Phase == CompactionPhase.Copying)
                    SpinWait.SpinUntil(() => Volatile.Read(ref written) > 20 || failure is not null, TimeSpan.FromSeconds(10));
            });
            Volatile.Write(ref stop, 1);
            writer.Join();

            Assert.Null(failure);
            Assert.True(Volatile.Read(ref written) > 20);
            after = StorageDump.Of(env);
            using (var read = env.BeginRead())
            {
                for (var i = 0; i < written; i++)
                    Assert.True(read.OpenTree("docs")!.Contains(Keys.Of($"late/{i:D6}")), $"write {i} lost (catch-up rounds {result.CatchUpRounds})");
            }
            env.Verify();
        }
        using var reopened = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        Assert.Equal(after, StorageDump.Of(reopened));
    }

    [Fact]
    public void Compact_Throws_WhenAnotherCompactionRuns()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        StorageDump.Churn(env, 2_000, seed: 5);
        Exception? second = null;
        env.Compact(progress =>
        {
            if (progress.Phase == CompactionPhase.Copying && second is null)
                second = Record.Exception(() => env.Compact());
        });

        Assert.IsType<CompactionInProgressException>(second);
        env.Verify();
    }

    [Fact]
    public void Compact_LeavesTheOldFile_WhenCancelled()
    {
        using var env = StorageEnvironment.Open(StorageOptions.InMemory());
        StorageDump.Churn(env, 4_000, seed: 6);
        var before = StorageDump.Of(env);
        using var cancel = new CancellationTokenSource();

        Assert.ThrowsAny<OperationCanceledException>(() => env.Compact(_ => cancel.Cancel(), cancellation: cancel.Token));

        Assert.Equal(before, StorageDump.Of(env));
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("after").Put(Keys.Of("a"), Keys.Of("b"));
            tx.Commit();
        }
        env.Compact();
        env.Verify();
    }

    private static byte[]? ReadDoc(StorageEnvironment env, int i)
    {
        using var read = env.BeginRead();
        return read.OpenTree("docs")!.TryGet(Keys.Of($"docs/{i:D7}"), out var value) ? value.ToArray() : null;
    }
}
