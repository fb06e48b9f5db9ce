using Folio.Storage.Journal;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Durability;

/// <summary>
/// A transaction whose journal record is large (a search index's batch) gets a journal file of its own, asks for a
/// flush at once, and its file is deleted once applied: a writer of large batches kept three such files on disk.
/// </summary>
public class LargeRecordJournalTests
{
    // Random values do not compress, so the record is as large as the pages: well past JournalWriter.LargeRecordBytes.
    private const int LargeValues = 700;
    private const int LargeValueBytes = 8000;

    private static void WriteLarge(StorageEnvironment env, int seed)
    {
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("large");
        for (var i = 0; i < LargeValues; i++)
            tree.Put(Keys.Of(seed * 10_000 + i), Keys.Value(seed * 10_000 + i, LargeValueBytes));
        tx.Commit();
    }

    private static void WriteSmall(StorageEnvironment env, int key)
    {
        using var tx = env.BeginWrite();
        tx.CreateTree("small").Put(Keys.Of(key), Keys.Value(key, 100));
        tx.Commit();
    }

    private static void AssertLarge(StorageEnvironment env, int seeds)
    {
        using var read = env.BeginRead();
        var tree = read.OpenTree("large")!;
        Assert.Equal(seeds * LargeValues, tree.Count);
        for (var seed = 0; seed < seeds; seed++)
        {
            Assert.True(tree.TryGet(Keys.Of(seed * 10_000 + LargeValues - 1), out var value), $"batch {seed} is missing");
            Assert.True(value.SequenceEqual(Keys.Value(seed * 10_000 + LargeValues - 1, LargeValueBytes)));
        }
    }

    /// <summary>Options under which the interval and the threshold never start a flush: only a large record's commit asks for one.</summary>
    private static StorageOptions FlushingOnlyWhenAsked(string path) => StorageOptions.ForPath(path) with
    {
        FlushInterval = TimeSpan.FromHours(1),
        FlushThresholdBytes = 1L << 40,
        JournalReleaseAfterIdle = TimeSpan.Zero,
    };

    private static string[] Journals(string path) => Directory.GetFiles(path, "*" + JournalWriter.Suffix);

    [Fact]
    public void FlushToDataFile_DeletesALargeRecordsFile_AndLaterCommitsStillReplayAfterACrash()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        var env = StorageEnvironment.Open(options);
        WriteLarge(env, 0);
        var journal = Assert.Single(Journals(dir.Path));
        Assert.True(new FileInfo(journal).Length >= JournalWriter.LargeRecordBytes, "the large record has a file of its own size");

        env.FlushToDataFile();
        Assert.Empty(Journals(dir.Path));
        Assert.Equal(0, env.GetStats().JournalFiles);

        WriteLarge(env, 1);
        WriteSmall(env, 1);
        WriteSmall(env, 2);
        env.SimulateCrash();

        using var reopened = StorageEnvironment.Open(options);
        AssertLarge(reopened, 2);
        using var read = reopened.BeginRead();
        Assert.Equal(2, read.OpenTree("small")!.Count);
        reopened.Verify();
    }

    [Fact]
    public void Commit_OfALargeRecord_IsAppliedAndItsFileDeleted_WithoutWaitingForTheFlushInterval()
    {
        using var dir = new TempDirectory();
        var options = FlushingOnlyWhenAsked(dir.Path);
        using var env = StorageEnvironment.Open(options);
        WriteLarge(env, 0);
        WriteLarge(env, 1);
        Waiting.Until(() => env.GetStats().LastFlushedTransactionId == env.LastCommittedTransactionId, "the large transactions are applied");
        Waiting.Until(() => Journals(dir.Path).Length == 0, "their journal files are deleted");
        AssertLarge(env, 2);
    }

    [Fact]
    public void Commit_OfSmallRecords_StillWaitsForTheFlushInterval()
    {
        using var dir = new TempDirectory();
        var options = FlushingOnlyWhenAsked(dir.Path);
        using var env = StorageEnvironment.Open(options);
        for (var key = 0; key < 20; key++)
            WriteSmall(env, key);
        // A large record's flush is asked for at its commit; small ones wait for the interval or the threshold.
        WriteLarge(env, 0);
        Waiting.Until(() => env.GetStats().LastFlushedTransactionId == env.LastCommittedTransactionId, "the large transaction is applied");
        WriteSmall(env, 20);
        Assert.True(env.GetStats().LastFlushedTransactionId < env.LastCommittedTransactionId, "a small commit was applied before the interval");
        Assert.NotEmpty(Journals(dir.Path));
    }
}
