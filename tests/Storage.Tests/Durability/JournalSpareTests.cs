using Folio.Storage.Journal;
using Folio.Storage.Platform;

namespace Folio.Storage.Tests.Durability;

/// <summary>
/// Applied journal files are kept as spares (renamed into the next journal) only when they are the size the next file
/// would take: after a burst, files sized to its rate were left on disk until the next file or the idle release. And
/// the file being written holds few zeros ahead of its records.
/// </summary>
public class JournalSpareTests
{
    // 64 pages of random bytes: half a megabyte a record, so a 1 MB file holds one.
    private const int PagesPerRecord = 64;

    [Fact]
    public void RetireUpTo_FilesOfTheSizeTheRatePicks_KeepsTwoAsSpares()
    {
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 1 << 20, 1, TimeSpan.FromHours(1), compress: false);
        for (var transaction = 1; transaction <= 6; transaction++)
            writer.Append(transaction, Pages(transaction), []);
        Assert.Equal(6, writer.FileCount);

        writer.RetireUpTo(5);

        Assert.Equal(1, writer.FileCount);
        Assert.Equal(3, fileSystem.List(JournalWriter.Suffix).Length);
    }

    [Fact]
    public void RetireUpTo_FilesSizedToASlowerRateThanNow_DeletesThem()
    {
        // Within one rate window (an hour here) the size the next file takes grows with what was written: 1 MB, 1 MB,
        // 2 MB, then 4 MB files, after which the next one would be 8 MB and none retired is of that size.
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 64 << 20, 1, TimeSpan.FromHours(1), compress: false);
        for (var transaction = 1; transaction <= 8; transaction++)
            writer.Append(transaction, Pages(transaction), []);
        Assert.Equal(4, writer.FileCount);

        writer.RetireUpTo(5);

        Assert.Equal(1, writer.FileCount);
        Assert.Single(fileSystem.List(JournalWriter.Suffix));
    }

    [Fact]
    public void Append_IntoALargeFile_KeepsAtMostAStepOfZerosAheadOfTheRecords()
    {
        // 64 MB files picked by the rate after 1, 1, 2, … MB ones: the file being written grows by 4 MB steps, where
        // doubling left 32 MB allocated and unused in a file 17 MB into its records.
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 64 << 20, 1, TimeSpan.FromHours(1), compress: false);
        var transaction = 0;
        while (writer.BytesWritten < 81L << 20)
            writer.Append(++transaction, Pages(transaction), []);
        long onDisk = 0;
        var files = fileSystem.List(JournalWriter.Suffix);
        foreach (var name in files)
            onDisk += fileSystem.Open(name).Length;

        // Each full file ends with less than a record unused; the one being written, with at most a step of zeros.
        var slack = onDisk - writer.BytesWritten;
        Assert.True(slack <= (4L << 20) + files.Length * (PagesPerRecord + 1L) * StorageLimits.PageSize, $"{slack} bytes of the {files.Length} journal files hold no record");
    }

    [Fact]
    public void Append_ToANewFile_DeletesTheFileLeftBehind_WhenTheFlusherAppliedAllItHolds()
    {
        // A 2.4 MB record makes the next file 4 MB; a small one goes there and is applied while that file still has
        // room, so the flusher leaves it; then a record of 4 MB or more takes a file of its own.
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 64 << 20, 1, TimeSpan.FromHours(1), compress: false);
        writer.Append(1, Pages(1, 300), []);
        writer.Append(2, Pages(2, 8), []);
        writer.RetireUpTo(2);
        Assert.Equal(1, writer.FileCount);

        writer.Append(3, Pages(3, 600), []);

        // Not at the flusher's next round: the 4 MB file holds only an applied transaction and is not a spare (only 1 MB
        // of it was ever zero-filled), so it goes at once; only the large record's file is on disk.
        Assert.Equal(1, writer.FileCount);
        Assert.Single(fileSystem.List(JournalWriter.Suffix));
    }

    [Fact]
    public void Append_ToANewFile_TakesTheFileLeftBehindAgain_WhenAppliedAndOfTheSizeTheRatePicks()
    {
        // 1 MB files: the first holds a small applied record and still has room, which the next record does not fit.
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 1 << 20, 1, TimeSpan.FromHours(1), compress: false);
        writer.Append(1, Pages(1, 8), []);
        writer.RetireUpTo(1);
        var first = Assert.Single(fileSystem.List(JournalWriter.Suffix));

        writer.Append(2, Pages(2, 120), []);

        // Renamed into the next file rather than kept beside a newly zero-filled one.
        var second = Assert.Single(fileSystem.List(JournalWriter.Suffix));
        Assert.NotEqual(first, second);
        Assert.Equal(1, writer.FileCount);
    }

    [Fact]
    public void Append_ToANewFile_KeepsTheFileLeftBehind_WhileItHoldsATransactionNotApplied()
    {
        var fileSystem = new MemoryFileSystem();
        using var writer = new JournalWriter(fileSystem, 1 << 20, 1, TimeSpan.FromHours(1), compress: false);
        writer.Append(1, Pages(1, 8), []);
        writer.Append(2, Pages(2, 8), []);
        writer.RetireUpTo(1);

        writer.Append(3, Pages(3, 120), []);

        Assert.Equal(2, writer.FileCount);
        Assert.Equal(2, fileSystem.List(JournalWriter.Suffix).Length);
    }

    private static Dictionary<long, byte[]> Pages(int seed, int count = PagesPerRecord)
    {
        var random = new Random(seed);
        var pages = new Dictionary<long, byte[]>();
        for (long number = 0; number < count; number++)
        {
            var page = new byte[StorageLimits.PageSize];
            Paging.PageHeader.Initialize(page, 1000 + number, Paging.PageFlags.Overflow);
            random.NextBytes(page.AsSpan(Paging.PageHeader.Size));
            pages[1000 + number] = page;
        }
        return pages;
    }
}
