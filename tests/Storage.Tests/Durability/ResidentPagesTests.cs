using System.Globalization;
using System.Buffers.Binary;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Durability;

public class ResidentPagesTests
{
    private const int Values = 600;
    private const int ValueSize = 3000;

    [Fact]
    public void ReleaseResidentPages_DropsTheDataFilesPagesFromTheProcess_AndReadsReturnTheSameBytes()
    {
        if (!OperatingSystem.IsLinux())
            return;
        using var directory = new TempDirectory("resident");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = Fill(options);
        var dataFile = Path.Combine(directory.Path, StorageEnvironment.DataFileName);

        using var env = StorageEnvironment.Open(options);
        AssertValues(env, expected);
        var before = ResidentKilobytes(dataFile);
        Assert.True(before >= Values * ValueSize / 1024 / 2, $"reading every value should make most of the data file resident; {before} KB were");

        env.ReleaseResidentPages();

        var after = ResidentKilobytes(dataFile);
        Assert.True(after <= 64, $"the data file kept {after} KB resident after the release (before: {before} KB)");
        AssertValues(env, expected);
        env.Verify();
    }

    [Fact]
    public void ReleaseResidentPages_OfASmallFile_LeavesResidentOnlyThePagesAReadTouches()
    {
        if (!OperatingSystem.IsLinux())
            return;
        using var directory = new TempDirectory("resident");
        var options = StorageOptions.ForPath(directory.Path);
        var expected = Fill(options);
        var dataFile = Path.Combine(directory.Path, StorageEnvironment.DataFileName);
        using var env = StorageEnvironment.Open(options);
        AssertValues(env, expected);

        env.ReleaseResidentPages();
        ReadOne(env, 300);
        var plain = ResidentKilobytes(dataFile);

        // Every file counts as small here; the server passes the size up to which it asks for this.
        env.ReleaseResidentPages(smallFileBytes: long.MaxValue);
        ReadOne(env, 300);
        var small = ResidentKilobytes(dataFile);

        Assert.True(small < plain, $"one read left {small} KB resident after dropping the cache, {plain} KB without");
        Assert.True(small <= 6 * StorageLimits.PageSize / 1024, $"one read left {small} KB resident; its tree path is a few pages");
        AssertValues(env, expected);
        env.Verify();
    }

    [Fact]
    public void Open_OfANewDataFile_LeavesResidentOnlyThePagesAReadTouches()
    {
        if (!OperatingSystem.IsLinux())
            return;
        // Creating writes every page of the new file, so all of them are in the system's cache as it opens.
        var uncached = NewEnvironmentResidentKilobytes(StorageOptions.ForPath);
        var cached = NewEnvironmentResidentKilobytes(path => StorageOptions.ForPath(path) with { UncachedWhenCreated = false });

        Assert.True(uncached <= 2 * StorageLimits.PageSize / 1024, $"opening a new file and one read left {uncached} KB resident; the read touches a page or two");
        Assert.True(uncached < cached, $"opening a new file and one read left {uncached} KB resident, {cached} KB when the file stays cached");
    }

    private static long NewEnvironmentResidentKilobytes(Func<string, StorageOptions> options)
    {
        using var directory = new TempDirectory("resident");
        using var env = StorageEnvironment.Open(options(directory.Path));
        using (var read = env.BeginRead())
            Assert.Null(read.OpenTree("values"));
        return ResidentKilobytes(Path.Combine(directory.Path, StorageEnvironment.DataFileName));
    }

    private static void ReadOne(StorageEnvironment env, int i)
    {
        using var read = env.BeginRead();
        Assert.True(read.OpenTree("values")!.TryGet(Key(i), out var value));
        AssertWhole(i, value, generation: 0);
    }

    [Fact]
    public async Task ReleaseResidentPages_UnderOpenReadersAndCommits_ChangesNothingAnyReaderSees()
    {
        if (!OperatingSystem.IsLinux())
            return;
        using var directory = new TempDirectory("resident");
        var options = StorageOptions.ForPath(directory.Path) with { FlushInterval = TimeSpan.FromMilliseconds(5) };
        var expected = Fill(options);

        using var env = StorageEnvironment.Open(options);
        using (var held = env.BeginRead())
        {
            // A span taken before the release points into the mapping the release empties.
            Assert.True(held.OpenTree("values")!.TryGet(Key(7), out var value));
            env.ReleaseResidentPages();
            AssertWhole(7, value, generation: 0);
        }

        // The writer goes on for two seconds and until the releaser and the reader have each had a turn: on a busy
        // machine their tasks may start late (a run once ended with no release at all).
        using var stop = new ManualResetEventSlim();
        var releases = 0;
        var rounds = 0;
        var releaser = Task.Run(() =>
        {
            while (!stop.IsSet)
            {
                env.ReleaseResidentPages();
                Interlocked.Increment(ref releases);
            }
        });
        var reader = Task.Run(() =>
        {
            while (!stop.IsSet)
            {
                AssertValues(env, generations: null);
                Interlocked.Increment(ref rounds);
            }
        });
        // Commits rewrite the pages the flusher then applies to the data file while the releases go on.
        var updates = 0;
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (clock.Elapsed < TimeSpan.FromSeconds(2) || ((Volatile.Read(ref releases) == 0 || Volatile.Read(ref rounds) == 0) && clock.Elapsed < TimeSpan.FromSeconds(60)))
        {
            var i = updates++ % Values;
            using var tx = env.BeginWrite();
            tx.OpenTree("values")!.Put(Key(i), ValueOf(i, updates));
            tx.Commit();
            expected[i] = updates;
        }
        stop.Set();

        await releaser;
        await reader;
        Assert.True(releases > 0 && rounds > 0 && updates > 0, $"releases {releases}, read rounds {rounds}, updates {updates}");
        env.FlushToDataFile();
        env.ReleaseResidentPages();
        AssertValues(env, expected);
        env.Verify();
    }

    private static int[] Fill(StorageOptions options)
    {
        using var env = StorageEnvironment.Open(options);
        using (var tx = env.BeginWrite())
        {
            var tree = tx.CreateTree("values");
            for (var i = 0; i < Values; i++)
                tree.Put(Key(i), ValueOf(i, generation: 0));
            tx.Commit();
        }
        // Closing applies the journal to the data file, so the reopened environment reads every page from its mapping.
        return new int[Values];
    }

    /// <summary>
    /// Checks every value is whole: the one written for its key at some generation. With <paramref name="generations"/>
    /// given (no writer running), the generation must be the one written last.
    /// </summary>
    private static void AssertValues(StorageEnvironment env, int[]? generations)
    {
        using var read = env.BeginRead();
        var tree = read.OpenTree("values")!;
        for (var i = 0; i < Values; i++)
        {
            Assert.True(tree.TryGet(Key(i), out var value), $"value {i} is missing");
            AssertWhole(i, value, generations?[i]);
        }
    }

    private static void AssertWhole(int i, ReadOnlySpan<byte> value, int? generation)
    {
        Assert.Equal(ValueSize, value.Length);
        Assert.Equal(i, BinaryPrimitives.ReadInt32LittleEndian(value));
        var written = BinaryPrimitives.ReadInt32LittleEndian(value[4..]);
        if (generation is { } expected)
            Assert.Equal(expected, written);
        Assert.True(value.SequenceEqual(ValueOf(i, written)), $"value {i} (generation {written}) does not hold the bytes written");
    }

    private static byte[] Key(int i) => System.Text.Encoding.UTF8.GetBytes(i.ToString("D6", CultureInfo.InvariantCulture));

    private static byte[] ValueOf(int i, int generation)
    {
        var value = new byte[ValueSize];
        new Random(i * 7919 + generation).NextBytes(value);
        BinaryPrimitives.WriteInt32LittleEndian(value, i);
        BinaryPrimitives.WriteInt32LittleEndian(value.AsSpan(4), generation);
        return value;
    }

    /// <summary>Resident kilobytes of every mapping of <paramref name="path"/> in this process.</summary>
    private static long ResidentKilobytes(string path)
    {
        long total = 0;
        var inFile = false;
        foreach (var line in File.ReadLines("/proc/self/smaps"))
        {
            if (line.Length > 0 && char.IsAsciiHexDigit(line[0]) && line.Contains('-', StringComparison.Ordinal) && !line.EndsWith(" kB", StringComparison.Ordinal))
                inFile = line.EndsWith(" " + path, StringComparison.Ordinal);
            else if (inFile && line.StartsWith("Rss:", StringComparison.Ordinal))
                total += long.Parse(line.AsSpan(4).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture);
        }
        return total;
    }
}
