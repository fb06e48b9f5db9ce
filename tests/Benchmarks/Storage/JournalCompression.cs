using System.Diagnostics;
using System.Globalization;
using System.IO.Compression;
using System.Text;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Journal;
using Folio.Storage.Platform;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// Whether compressing journal records would pay: real records from two workloads (1 KB JSON
/// documents through the document store, and random 128-byte values in random order) compressed
/// with the framework's Deflate and Brotli at their fastest settings and with LZ4 as the journal now does, reporting the ratio and the
/// single-core throughput — to set against the disk's bandwidth and the CPU the write path already uses.
/// <code>dotnet run -c Release --project tests/Benchmarks -- journal-compression</code>
/// </summary>
internal static class JournalCompression
{
    public const string Command = "journal-compression";

    public static int Run(string[] args)
    {
        _ = args;
        Console.WriteLine("| workload | records | avg record (KB) | Deflate fastest: ratio | MB/s | Brotli q1: ratio | MB/s | LZ4 fast (the journal's): ratio | MB/s |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        Report("1 KB JSON documents, 100 per transaction", Records(DocumentWorkload));
        Report("random 16 B keys / 128 B values, 100 per transaction", Records(RandomWorkload));
        return 0;
    }

    private static void DocumentWorkload(StorageEnvironment environment)
    {
        using var store = DocumentStore.On(environment);
        var random = new Random(42);
        for (var batch = 0; batch < 200; batch++)
        {
            var commands = new List<DocumentCommand>(100);
            for (var i = 0; i < 100; i++)
            {
                var n = batch * 100 + i;
                var json = $$"""{"Company":"companies/{{random.Next(5000)}}","Employee":"employees/{{random.Next(300)}}","OrderedAt":"2026-{{1 + random.Next(12):D2}}-{{1 + random.Next(28):D2}}T10:00:00Z","ShipTo":{"City":"City {{random.Next(900)}}","Country":"Country {{random.Next(60)}}","Line1":"{{random.Next(9999)}} Some Street"},"Lines":[{"Product":"products/{{random.Next(700)}}","Quantity":{{1 + random.Next(20)}},"PricePerUnit":{{random.Next(1, 500)}}.{{random.Next(100):D2}},"ProductName":"Product name number {{random.Next(700)}}"},{"Product":"products/{{random.Next(700)}}","Quantity":{{1 + random.Next(20)}},"PricePerUnit":{{random.Next(1, 500)}}.{{random.Next(100):D2}},"ProductName":"Another product {{random.Next(700)}}"}],"Freight":{{random.Next(1, 300)}}.{{random.Next(100):D2}},"Notes":"Deliver between 9 and 5; call ahead. Order {{n}} placed through the web shop with a discount code."}""";
                commands.Add(new DocumentCommand(DocumentCommandType.Put, $"orders/{n}", PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)), null));
            }
            store.BatchAsync(commands).GetAwaiter().GetResult();
        }
    }

    private static void RandomWorkload(StorageEnvironment environment)
    {
        var random = new Random(7);
        var key = new byte[16];
        var value = new byte[128];
        for (var transaction = 0; transaction < 200; transaction++)
        {
            using var tx = environment.BeginWrite();
            var tree = tx.CreateTree("items");
            for (var i = 0; i < 100; i++)
            {
                random.NextBytes(key);
                random.NextBytes(value);
                tree.Put(key, value);
            }
            tx.Commit();
        }
    }

    /// <summary>Runs a workload on an in-memory environment and returns its journal records as written.</summary>
    private static List<byte[]> Records(Action<StorageEnvironment> workload)
    {
        var files = new MemoryFileSystem();
        var environment = StorageEnvironment.Open(new StorageOptions { FileSystem = files, BackgroundFlush = false, JournalFileSize = 1L << 30, JournalCompression = false });
        workload(environment);
        // Left as a crash leaves it: a clean close applies the journal and deletes it.
        environment.SimulateCrash();
        var records = new List<byte[]>();
        foreach (var name in files.List(JournalWriter.Suffix))
        {
            var file = files.Open(name);
            var header = new byte[TransactionRecord.HeaderSize];
            for (long position = 0; position + header.Length <= file.Length;)
            {
                file.Read(position, header);
                if (!TransactionRecord.TryReadHeader(header, out var recordHeader))
                    break;
                var record = new byte[TransactionRecord.Align(TransactionRecord.HeaderSize + recordHeader.StoredLength)];
                file.Read(position, record);
                records.Add(record);
                position += record.Length;
            }
        }
        return records;
    }

    private static void Report(string workload, List<byte[]> records)
    {
        long input = 0;
        foreach (var record in records)
            input += record.Length;
        var (deflateOut, deflateSeconds) = Measure(records, static (record, output) =>
        {
            using var deflate = new DeflateStream(output, CompressionLevel.Fastest, leaveOpen: true);
            deflate.Write(record);
        });
        var (brotliOut, brotliSeconds) = Measure(records, static (record, output) =>
        {
            using var brotli = new BrotliStream(output, CompressionLevel.Fastest, leaveOpen: true);
            brotli.Write(record);
        });
        var (lz4Out, lz4Seconds) = Measure(records, static (record, output) =>
        {
            output.SetLength(K4os.Compression.LZ4.LZ4Codec.MaximumOutputSize(record.Length));
            var written = K4os.Compression.LZ4.LZ4Codec.Encode(record, output.GetBuffer().AsSpan(0, (int)output.Length), K4os.Compression.LZ4.LZ4Level.L00_FAST);
            output.SetLength(written);
        });
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"| {workload} | {records.Count} | {input / 1024.0 / Math.Max(1, records.Count):F1} | {(double)input / deflateOut:F2} | {input / 1e6 / deflateSeconds:F0} | {(double)input / brotliOut:F2} | {input / 1e6 / brotliSeconds:F0} | {(double)input / lz4Out:F2} | {input / 1e6 / lz4Seconds:F0} |"));
    }

    /// <summary>Compresses every record three times and keeps the fastest pass.</summary>
    private static (long Output, double Seconds) Measure(List<byte[]> records, Action<byte[], MemoryStream> compress)
    {
        var best = double.MaxValue;
        long output = 0;
        using var buffer = new MemoryStream();
        for (var pass = 0; pass < 3; pass++)
        {
            output = 0;
            var started = Stopwatch.GetTimestamp();
            foreach (var record in records)
            {
                buffer.SetLength(0);
                compress(record, buffer);
                output += buffer.Length;
            }
            best = Math.Min(best, Stopwatch.GetElapsedTime(started).TotalSeconds);
        }
        return (output, best);
    }
}
