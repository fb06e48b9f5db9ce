using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Journal;
using Folio.Storage.Platform;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Durability;

/// <summary>Journal records compressed with LZ4 (or left raw) replay after a crash; torn ones end the journal; old raw-only journals still recover.</summary>
public class JournalCompressionTests
{
    private const int FlagsOffset = 20;

    private static byte[] Text(int seed, int length)
    {
        // Compressible like JSON: words from a small vocabulary.
        string[] words = ["order", "customer", "\"Lines\":", "Product", "Quantity", "Price", "{", "}", "Freight", "Company"];
        var random = new Random(seed);
        var text = new StringBuilder(length + 16);
        while (text.Length < length)
            text.Append(words[random.Next(words.Length)]).Append(' ');
        return Encoding.UTF8.GetBytes(text.ToString(0, length));
    }

    private static void Write(StorageEnvironment env, int round, Func<int, int, byte[]> value)
    {
        using var tx = env.BeginWrite();
        var tree = tx.CreateTree("t");
        for (var i = 0; i < 60; i++)
            tree.Put(Keys.Of(round * 1000 + i), value(round * 1000 + i, 200 + i * 7));
        tx.Commit();
    }

    private static void AssertRounds(StorageEnvironment env, int rounds, Func<int, int, byte[]> value)
    {
        using var read = env.BeginRead();
        var tree = read.OpenTree("t")!;
        Assert.Equal(rounds * 60, tree.Count);
        for (var round = 0; round < rounds; round++)
        {
            for (var i = 0; i < 60; i++)
            {
                Assert.True(tree.TryGet(Keys.Of(round * 1000 + i), out var stored), $"round {round} entry {i} is missing");
                Assert.True(stored.SequenceEqual(value(round * 1000 + i, 200 + i * 7)), $"round {round} entry {i} differs");
            }
        }
    }

    /// <summary>Every record's header in the journal files, in order: (file, position, magic, flags, stored length).</summary>
    private static List<(string File, long Position, ulong Magic, int Flags, long Stored)> Records(string directory)
    {
        var records = new List<(string, long, ulong, int, long)>();
        foreach (var file in Directory.GetFiles(directory, "*" + JournalWriter.Suffix).Order(StringComparer.Ordinal))
        {
            var bytes = File.ReadAllBytes(file);
            for (long position = 0; position + TransactionRecord.HeaderSize <= bytes.Length;)
            {
                if (!TransactionRecord.TryReadHeader(bytes.AsSpan((int)position, TransactionRecord.HeaderSize), out var header))
                    break;
                records.Add((file, position, BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan((int)position)), BinaryPrimitives.ReadInt32LittleEndian(bytes.AsSpan((int)position + FlagsOffset)), header.StoredLength));
                position += TransactionRecord.Align(TransactionRecord.HeaderSize + header.StoredLength);
            }
        }
        return records;
    }

    [Fact]
    public void Recover_CompressedRecords_ReplaysThem()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        var env = StorageEnvironment.Open(options);
        for (var round = 0; round < 12; round++)
            Write(env, round, Text);
        var stats = env.GetStats();
        env.SimulateCrash();

        var records = Records(dir.Path);
        Assert.Equal(12, records.Count);
        Assert.All(records, r => Assert.Equal(TransactionRecord.Magic, r.Magic));
        Assert.Contains(records, r => r.Flags == 1);
        Assert.True(stats.JournalBytesWritten < 12 * 4 * 4096, $"{stats.JournalBytesWritten} journal bytes for 12 compressible transactions: not compressed");

        using var reopened = StorageEnvironment.Open(options);
        AssertRounds(reopened, 12, Text);
        reopened.Verify();
    }

    [Fact]
    public void Recover_IncompressibleRecord_WritesItRawAndReplaysIt()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        long next;
        using (var env = StorageEnvironment.Open(options))
        {
            Write(env, 0, Text);
            next = env.LastCommittedTransactionId + 1;
        }

        // Whole pages of random bytes (no tree page's free gap to leave out): LZ4 cannot save a block on them. Written
        // far beyond the environment's pages, so replaying them changes nothing the trees use.
        var random = new Random(7);
        var pages = new Dictionary<long, byte[]>();
        for (long number = 1000; number < 1003; number++)
        {
            var page = new byte[StorageLimits.PageSize];
            Paging.PageHeader.Initialize(page, number, Paging.PageFlags.Overflow);
            random.NextBytes(page.AsSpan(Paging.PageHeader.Size));
            pages[number] = page;
        }
        var fileSystem = options.CreateFileSystem();
        using (var writer = new JournalWriter(fileSystem, 1 << 20, 1, TimeSpan.FromSeconds(1), compress: true))
            writer.Append(next, pages, []);

        var record = Assert.Single(Records(dir.Path));
        Assert.Equal(TransactionRecord.Magic, record.Magic);
        Assert.Equal(0, record.Flags);

        using var reopened = StorageEnvironment.Open(options);
        Assert.Equal(next, reopened.GetStats().LastFlushedTransactionId);
        foreach (var (number, page) in pages)
            Assert.True(reopened.Pager.Read(number, 1).SequenceEqual(page), $"page {number} was not replayed as written");
        AssertRounds(reopened, 1, Text);
    }

    [Fact]
    public void Recover_TornCompressedRecord_EndsTheJournalThere()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false };
        var env = StorageEnvironment.Open(options);
        for (var round = 0; round < 11; round++)
            Write(env, round, Text);
        env.SimulateCrash();

        var last = Records(dir.Path)[^1];
        Assert.Equal(1, last.Flags);
        using (var stream = new FileStream(last.File, FileMode.Open, FileAccess.ReadWrite))
        {
            // Inside the compressed payload: its checksum fails, so the record is a commit that never returned.
            stream.Position = last.Position + TransactionRecord.HeaderSize + (last.Stored / 2);
            var original = stream.ReadByte();
            stream.Position--;
            stream.WriteByte((byte)(original ^ 0x5A));
        }

        using var reopened = StorageEnvironment.Open(options);
        AssertRounds(reopened, 10, Text);
        using (var read = reopened.BeginRead())
            Assert.False(read.OpenTree("t")!.Contains(Keys.Of(10_000)));
        reopened.Verify();
    }

    [Fact]
    public void Recover_JournalOfRawOnlyRecords_FromBeforeCompression_ReplaysIt()
    {
        using var dir = new TempDirectory();
        var options = StorageOptions.ForPath(dir.Path) with { BackgroundFlush = false, JournalCompression = false };
        var env = StorageEnvironment.Open(options);
        for (var round = 0; round < 9; round++)
            Write(env, round, Text);
        env.SimulateCrash();

        // Rewrites each header the way the writer before compression did: its magic, no flags or decompressed length,
        // and the header checksum at 36 over the first 36 bytes.
        foreach (var (file, position, _, flags, _) in Records(dir.Path))
        {
            Assert.Equal(0, flags);
            using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite);
            var header = new byte[TransactionRecord.HeaderSize];
            stream.Position = position;
            stream.ReadExactly(header);
            BinaryPrimitives.WriteUInt64LittleEndian(header, TransactionRecord.RawOnlyMagic);
            header.AsSpan(36).Clear();
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(36), Crc32C.Compute(header.AsSpan(0, 36)));
            stream.Position = position;
            stream.Write(header);
        }
        Assert.All(Records(dir.Path), r => Assert.Equal(TransactionRecord.RawOnlyMagic, r.Magic));
        Assert.Equal(9, Records(dir.Path).Count);

        var reopened = StorageEnvironment.Open(options with { JournalCompression = true });
        AssertRounds(reopened, 9, Text);
        reopened.Verify();
        Write(reopened, 9, Text);
        reopened.SimulateCrash();

        using var again = StorageEnvironment.Open(options with { JournalCompression = true });
        AssertRounds(again, 10, Text);
    }
}
