using System.Buffers;
using System.Diagnostics;
using Folio.Server.BulkInsert;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>
/// <c>… -- bulk-profile [--docs N] [--batch N]</c>: the bulk insert path without HTTP, stage by stage, in one
/// process (for a Stopwatch breakdown and for perf): parsing the stream, then storing the parsed batches.
/// </summary>
public static class BulkProfile
{
    public static async Task<int> RunAsync(string[] args)
    {
        int docs = args.Length > 1 && args[0] == "--docs" ? int.Parse(args[1], System.Globalization.CultureInfo.InvariantCulture) : 100_000;
        const int batchSize = 4096;
        byte[][] records = RecordGenerator.GenerateMany(docs);
        byte[] body = await BuildBodyAsync(records);
        Console.WriteLine($"{docs:N0} records, body {body.Length / (1024.0 * 1024):F0} MB");

        // Stage 1: parse and validate the whole stream, batch by batch, as the server does.
        var batches = new List<List<DocumentCommand>>();
        using (var parser = new BulkInsertParser(64, 32 << 20))
        {
            TimeSpan cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var watch = Stopwatch.StartNew();
            var sequence = new ReadOnlySequence<byte>(body);
            while (true)
            {
                var batch = new List<DocumentCommand>(batchSize);
                long bytes = 0;
                BulkInsertParseStatus status = parser.Parse(sequence, true, batch, ref bytes, batchSize, 16 << 20, out SequencePosition consumed, out _);
                batches.Add(batch);
                sequence = sequence.Slice(consumed);
                if (status == BulkInsertParseStatus.Completed)
                    break;
            }

            Report("parse + validate (BulkInsertParser, PreparedDocument.Parse)", watch.Elapsed, docs);
            Console.WriteLine($"  process CPU {(Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMilliseconds * 1000 / docs:F1} µs/doc");
        }

        // Stage 2: store the parsed batches through the merger, one after another, durable.
        string directory = Path.Combine(Path.GetTempPath(), "folio-bulk-profile-" + Guid.NewGuid().ToString("N"));
        try
        {
            using DocumentStore store = DocumentStore.Open(StorageOptions.ForPath(directory));
            TimeSpan cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var watch = Stopwatch.StartNew();
            foreach (List<DocumentCommand> batch in batches)
                await store.BatchAsync(batch);
            Report($"store (DocumentStore.BatchAsync, {batches.Count} transactions)", watch.Elapsed, docs);
            Console.WriteLine($"  process CPU {(Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalMilliseconds * 1000 / docs:F1} µs/doc");
            StorageStats stats = store.Environment.GetStats();
            Console.WriteLine($"  journal {stats.JournalBytesWritten / (double)docs:F0} bytes/doc");
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }

        return 0;
    }

    private static void Report(string stage, TimeSpan elapsed, int docs) =>
        Console.WriteLine($"{stage}: {elapsed.TotalSeconds:F2} s, {elapsed.TotalMilliseconds * 1000 / docs:F1} µs/doc, {docs / elapsed.TotalSeconds:N0} docs/s");

    private static async Task<byte[]> BuildBodyAsync(byte[][] records)
    {
        using var content = new CommandStreamContent(records, 0, records.Length);
        using var memory = new MemoryStream();
        await content.CopyToAsync(memory);
        return memory.ToArray();
    }
}
