using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using Folio.Benchmarks.Storage;
using Folio.Storage;
using Folio.Storage.Compaction;
using Folio.Storage.Documents;

namespace Folio.Benchmarks.Compaction;

/// <summary>
/// Online compaction on real files: loads <c>--docs</c> generated orders (about 700 bytes of JSON each) into a document
/// store, deletes every other one, applies the journal, then compacts while <c>--readers</c> threads load random
/// surviving documents by id; prints the data file before and after, the share returned, and read latency before and
/// during the compaction.
/// With <c>--writers N</c>, N more threads write new orders one commit each throughout (before it, for the baseline, and
/// during it), and every write acknowledged is read back after the compaction.
/// <code>dotnet run -c Release --project tests/Benchmarks -- compact-load [--docs 1000000] [--readers 2] [--writers 0] [--dir /tmp]</code>
/// </summary>
internal static class CompactLoadCommand
{
    public const string Command = "compact-load";

    public static async Task<int> RunAsync(string[] args)
    {
        int docs = 1_000_000, readers = 2, writers = 0;
        string parent = Path.GetTempPath();
        for (int i = 0; i + 1 < args.Length; i += 2)
        {
            switch (args[i])
            {
                case "--docs": docs = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--readers": readers = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--writers": writers = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--dir": parent = args[i + 1]; break;
                default:
                    Console.Error.WriteLine("usage: compact-load [--docs N] [--readers N] [--writers N] [--dir PATH]");
                    return 2;
            }
        }

        string root = StorageWorkload.FreshDirectory(parent, $"folio-compact-load-{Environment.ProcessId}");
        try
        {
            string load = MachineInfo.LoadAverage();
            using DocumentStore store = DocumentStore.Open(StorageOptions.ForPath(root));
            var clock = Stopwatch.StartNew();
            await LoadAsync(store, docs);
            Console.WriteLine($"loaded {docs:N0} documents in {clock.Elapsed.TotalSeconds:F1} s");
            clock.Restart();
            await DeleteEveryOtherAsync(store, docs);
            Console.WriteLine($"deleted {docs / 2:N0} in {clock.Elapsed.TotalSeconds:F1} s");
            store.Environment.FlushToDataFile();
            string dataFile = Path.Combine(root, "data.folio");
            long before = new FileInfo(dataFile).Length;
            // Growth runs ahead of use; the high-water mark is what a clean stop trims the file to.
            long usedBefore = store.Environment.GetStats().AllocatedPages * StorageLimits.PageSize;

            var written = new ConcurrentBag<string>();
            (Latencies baseline, Latencies writesBefore) = Run(store, docs, readers, writers, written, 0, () => Thread.Sleep(2_000));
            CompactionResult? result = null;
            (Latencies during, Latencies writesDuring) = Run(store, docs, readers, writers, written, 1, () => result = store.Compact(p =>
                Console.WriteLine($"  {p.Phase} {p.Percent:F1}% {p.MegabytesPerSecond:F1} MB/s")));
            long after = new FileInfo(dataFile).Length;
            long usedAfter = store.Environment.GetStats().AllocatedPages * StorageLimits.PageSize;

            Console.WriteLine();
            Console.WriteLine($"| docs | data file before (high-water) | after (high-water) | returned of the file (of the high-water) | compaction | writes paused | reads during | read p50 / p99 / max before | during |");
            Console.WriteLine($"|---|---|---|---|---|---|---|---|---|");
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {docs:N0} | {before / 1048576.0:F1} MB ({usedBefore / 1048576.0:F1}) | {after / 1048576.0:F1} MB ({usedAfter / 1048576.0:F1}) | {(before - after) / (double)before:P1} ({(usedBefore - usedAfter) / (double)usedBefore:P1}) | {result!.Elapsed.TotalSeconds:F1} s | {result.WritesPaused.TotalMilliseconds:F0} ms | {during.Count:N0} | {baseline} | {during} |"));
            if (writers > 0)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"writes ({writers} writers, one commit each): {writesBefore.Count:N0} in the 2 s before, p50 / p99 / max {writesBefore}; {writesDuring.Count:N0} during, {writesDuring}"));
                Console.WriteLine($"every acknowledged write read back after the compaction: {CheckWritten(store, written):N0} documents");
            }
            Console.WriteLine($"load average at start: {load}; at end: {MachineInfo.LoadAverage()}");
            return 0;
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static async Task LoadAsync(DocumentStore store, int docs)
    {
        var random = new Random(7);
        for (int start = 0; start < docs; start += 1_000)
        {
            var commands = new List<DocumentCommand>(1_000);
            for (int i = start; i < Math.Min(docs, start + 1_000); i++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, Id(i), PreparedDocument.Parse(Order(i, random)), null));
            await store.BatchAsync(commands);
        }
    }

    private static async Task DeleteEveryOtherAsync(DocumentStore store, int docs)
    {
        for (int start = 0; start < docs; start += 2_000)
        {
            var commands = new List<DocumentCommand>(1_000);
            for (int i = start; i < Math.Min(docs, start + 2_000); i += 2)
                commands.Add(new DocumentCommand(DocumentCommandType.Delete, Id(i), null, null));
            await store.BatchAsync(commands);
        }
    }

    private static string Id(int i) => "orders/" + i.ToString(CultureInfo.InvariantCulture);

    private static byte[] Order(int i, Random random)
    {
        var text = new StringBuilder(800);
        text.Append(CultureInfo.InvariantCulture, $"{{\"Company\":\"companies/{random.Next(1, 5_000)}\",\"Employee\":\"employees/{random.Next(1, 500)}\",\"OrderedAt\":\"2026-{random.Next(1, 13):D2}-{random.Next(1, 29):D2}T10:00:00Z\",\"Freight\":{random.Next(1, 100_000) / 100.0},\"ShipTo\":{{\"City\":\"City {random.Next(1, 800)}\",\"Country\":\"Country {random.Next(1, 60)}\",\"PostalCode\":\"{random.Next(10_000, 99_999)}\",\"Street\":\"{random.Next(1, 999)} Some Street\"}},\"Lines\":[");
        int lines = random.Next(2, 5);
        for (int line = 0; line < lines; line++)
        {
            if (line > 0)
                text.Append(',');
            text.Append(CultureInfo.InvariantCulture, $"{{\"Product\":\"products/{random.Next(1, 78)}\",\"ProductName\":\"Product number {random.Next(1, 78)}\",\"PricePerUnit\":{random.Next(100, 10_000) / 100.0},\"Quantity\":{random.Next(1, 50)},\"Discount\":{random.Next(0, 25) / 100.0}}}");
        }
        text.Append(CultureInfo.InvariantCulture, $"],\"Number\":{i},\"@metadata\":{{\"@collection\":\"Orders\"}}}}");
        return Encoding.UTF8.GetBytes(text.ToString());
    }

    /// <summary>
    /// Runs <paramref name="readers"/> threads loading random odd (surviving) ids and <paramref name="writers"/>
    /// threads putting new orders until <paramref name="work"/> returns; the ids written go to <paramref name="written"/>.
    /// </summary>
    private static (Latencies Reads, Latencies Writes) Run(DocumentStore store, int docs, int readers, int writers, ConcurrentBag<string> written, int round, Action work)
    {
        var stop = 0;
        var samples = new List<long>[readers + writers];
        var threads = new Thread[readers + writers];
        for (int t = 0; t < readers + writers; t++)
        {
            var mine = samples[t] = new List<long>(1 << 20);
            int seed = t;
            threads[t] = t < readers
                ? new Thread(() => ReadUntilStopped(store, docs, seed, mine, ref stop))
                : new Thread(() => WriteUntilStopped(store, $"new/{round}-{seed}-", seed, mine, written, ref stop));
            threads[t].Start();
        }
        work();
        Volatile.Write(ref stop, 1);
        foreach (Thread thread in threads)
            thread.Join();
        return (Merge(samples[..readers]), Merge(samples[readers..]));
    }

    private static void ReadUntilStopped(DocumentStore store, int docs, int seed, List<long> samples, ref int stop)
    {
        var random = new Random(seed);
        while (Volatile.Read(ref stop) == 0)
        {
            string id = Id(random.Next(docs / 2) * 2 + 1);
            long started = Stopwatch.GetTimestamp();
            using (DocumentReader reader = store.OpenReader())
            {
                if (!reader.TryGet(id, out _))
                    throw new InvalidOperationException($"{id} was not found");
            }
            samples.Add(Stopwatch.GetTimestamp() - started);
        }
    }

    private static void WriteUntilStopped(DocumentStore store, string prefix, int seed, List<long> samples, ConcurrentBag<string> written, ref int stop)
    {
        var random = new Random(1_000 + seed);
        for (int n = 0; Volatile.Read(ref stop) == 0; n++)
        {
            string id = prefix + n.ToString(CultureInfo.InvariantCulture);
            var document = PreparedDocument.Parse(Order(n, random));
            long started = Stopwatch.GetTimestamp();
            store.PutAsync(id, document).GetAwaiter().GetResult();
            samples.Add(Stopwatch.GetTimestamp() - started);
            written.Add(id);
        }
    }

    private static int CheckWritten(DocumentStore store, ConcurrentBag<string> written)
    {
        using DocumentReader reader = store.OpenReader();
        foreach (string id in written)
        {
            if (!reader.TryGet(id, out _))
                throw new InvalidOperationException($"{id} was acknowledged and is missing after the compaction");
        }
        return written.Count;
    }

    private static Latencies Merge(List<long>[] samples)
    {
        var all = new List<long>();
        foreach (List<long> list in samples)
            all.AddRange(list);
        all.Sort();
        return new Latencies(all);
    }

    private sealed class Latencies(List<long> sorted)
    {
        public int Count => sorted.Count;

        public override string ToString() => sorted.Count == 0
            ? "-"
            : string.Create(CultureInfo.InvariantCulture, $"{Us(0.50):F0} / {Us(0.99):F0} / {Us(1.0):F0} us");

        private double Us(double quantile) =>
            sorted[Math.Min(sorted.Count - 1, (int)(quantile * sorted.Count))] * 1_000_000.0 / Stopwatch.Frequency;
    }
}
