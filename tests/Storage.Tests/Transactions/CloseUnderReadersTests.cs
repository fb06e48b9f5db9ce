using Folio.Storage.Tests.Support;
using Folio.Storage.Transactions;

namespace Folio.Storage.Tests.Transactions;

/// <summary>
/// Closing an environment while read transactions are open (an index dropped under a query, a
/// database deleted under a stream): the readers keep their snapshot readable and the files are
/// released only when the last of them ends; nothing opens after the close began.
/// </summary>
public class CloseUnderReadersTests
{
    private const int Entries = 2_000;

    private static void Fill(StorageEnvironment env, int rounds)
    {
        for (var round = 0; round < rounds; round++)
        {
            using var tx = env.BeginWrite();
            var tree = tx.CreateTree("t");
            for (var i = 0; i < Entries / rounds; i++)
            {
                var key = round * (Entries / rounds) + i;
                tree.Put(Keys.Of(key), Keys.Value(key, 200));
            }
            tx.Commit();
        }
    }

    private static void AssertAll(ReadTransaction read)
    {
        var tree = read.OpenTree("t")!;
        Assert.Equal(Entries, tree.Count);
        for (var key = 0; key < Entries; key++)
        {
            Assert.True(tree.TryGet(Keys.Of(key), out var value), $"key {key} is missing");
            Assert.True(value.SequenceEqual(Keys.Value(key, 200)), $"key {key} reads other bytes");
        }
    }

    [Fact]
    public void Dispose_KeepsAnOpenReaderReadable_UntilItEnds()
    {
        using var dir = new TempDirectory();
        var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        Fill(env, 10);
        var read = env.BeginRead();

        env.Dispose();

        Assert.False(env.Closed.IsCompleted, "the files were released while a reader was open");
        AssertAll(read);
        Assert.Throws<ObjectDisposedException>(() => env.BeginRead());
        Assert.Throws<ObjectDisposedException>(() => env.BeginWrite());
        Assert.Throws<StorageLockedException>(() => StorageEnvironment.Open(StorageOptions.ForPath(dir.Path)));

        read.Dispose();
        Assert.True(env.Closed.IsCompleted, "the last reader ended but the files stay open");
        using var reopened = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        using var again = reopened.BeginRead();
        AssertAll(again);
    }

    [Fact]
    public void Dispose_CompletesClosedAtOnce_WhenNoReaderIsOpen()
    {
        using var dir = new TempDirectory();
        var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        Fill(env, 2);
        using (env.BeginRead())
        {
        }

        env.Dispose();

        Assert.True(env.Closed.IsCompleted);
        env.Dispose();
    }

    [Fact]
    public void Dispose_WithReaderOnAnOlderSnapshot_KeepsItsSnapshotAndEveryCommit()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        var env = StorageEnvironment.Open(options);
        Fill(env, 10);
        var read = env.BeginRead();
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree("t")!;
            for (var key = 0; key < Entries; key += 2)
                tree.Put(Keys.Of(key), Keys.Value(-key, 50));
            tx.Commit();
        }

        // The close cannot apply the newer commit to the data file under the older snapshot: it must
        // leave that commit in the journal for the next open.
        env.Dispose();
        AssertAll(read);
        read.Dispose();

        using var reopened = StorageEnvironment.Open(options);
        using var after = reopened.BeginRead();
        var updated = after.OpenTree("t")!;
        Assert.True(updated.TryGet(Keys.Of(10), out var value));
        Assert.True(value.SequenceEqual(Keys.Value(-10, 50)));
        reopened.Verify();
    }

    [Fact]
    public async Task Dispose_WhileReadersRunOnManyThreads_NeverReadsReleasedMemory()
    {
        using var dir = new TempDirectory();
        var env = StorageEnvironment.Open(StorageOptions.ForPath(dir.Path));
        Fill(env, 4);
        var refused = 0;
        Exception? failure = null;
        using var started = new CountdownEvent(Environment.ProcessorCount * 2);
        var readers = new Thread[Environment.ProcessorCount * 2];
        for (var t = 0; t < readers.Length; t++)
        {
            readers[t] = new Thread(() =>
            {
                started.Signal();
                while (true)
                {
                    ReadTransaction read;
                    try
                    {
                        read = env.BeginRead();
                    }
                    catch (ObjectDisposedException)
                    {
                        Interlocked.Increment(ref refused);
                        return;
                    }
                    using (read)
                    {
                        try
                        {
                            AssertAll(read);
                            if (env.Closed.IsCompleted)
                                throw new InvalidOperationException("The files were released while this reader was open.");
                        }
                        catch (Exception e)
                        {
                            Interlocked.CompareExchange(ref failure, e, null);
                            return;
                        }
                    }
                }
            });
            readers[t].Start();
        }
        started.Wait(TimeSpan.FromSeconds(30));

        env.Dispose();

        foreach (var reader in readers)
            Assert.True(reader.Join(TimeSpan.FromSeconds(60)), "a reader did not stop");
        Assert.Null(failure);
        Assert.Equal(readers.Length, refused);
        await env.Closed.WaitAsync(TimeSpan.FromSeconds(30));
    }

    [Fact]
    public void SimulateCrash_WithAReaderOpen_ReleasesTheFilesWhenItEnds()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        var env = StorageEnvironment.Open(options);
        Fill(env, 5);
        var read = env.BeginRead();

        env.SimulateCrash();

        AssertAll(read);
        Assert.False(env.Closed.IsCompleted);
        read.Dispose();
        Assert.True(env.Closed.IsCompleted);
        using var reopened = StorageEnvironment.Open(options);
        using var again = reopened.BeginRead();
        AssertAll(again);
    }

    /// <summary>
    /// Regression: a dropped index's directory is renamed while a searcher still reads it; the last
    /// reader then released the files and the journal's spare-file cleanup, by its old path, threw
    /// DirectoryNotFoundException into that reader's Dispose (a streamed query answered 500 at its end).
    /// </summary>
    [Fact]
    public void LastReaderEnding_AfterTheDirectoryWasMoved_ReleasesTheFilesWithoutThrowing()
    {
        using var dir = new TempDirectory();
        var path = System.IO.Path.Combine(dir.Path, "env");
        var options = StorageOptions.ForPath(path) with { BackgroundFlush = false, JournalFileSize = 64 * 1024 };
        var env = StorageEnvironment.Open(options);
        Fill(env, 10);
        for (var round = 0; round < 200; round++)
        {
            using (var tx = env.BeginWrite())
            {
                tx.CreateTree("small").Put(Keys.Of(round), Keys.Value(round, 100));
                tx.Commit();
            }
            // Applying the journals retires them; full ones are kept as spares for reuse.
            if (round % 10 == 9)
                env.FlushToDataFile();
        }
        var read = env.BeginRead();
        // A commit after the reader's snapshot: the close cannot apply it, so it keeps the journals (and spares).
        using (var tx = env.BeginWrite())
        {
            tx.CreateTree("small").Put(Keys.Of(-1), Keys.Value(-1, 100));
            tx.Commit();
        }
        env.Dispose();
        var moved = System.IO.Path.Combine(dir.Path, "moved");
        Directory.Move(path, moved);

        AssertAll(read);
        read.Dispose();

        Assert.True(env.Closed.IsCompleted);
        Assert.IsType<DirectoryNotFoundException>(env.Closed.Exception?.InnerException);
        using var reopened = StorageEnvironment.Open(StorageOptions.ForPath(moved));
        using var again = reopened.BeginRead();
        AssertAll(again);
        Assert.True(again.OpenTree("small")!.TryGet(Keys.Of(-1), out _), "the commit the close could not apply was lost");
    }
}
