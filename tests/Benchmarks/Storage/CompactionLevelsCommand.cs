using System.Diagnostics;
using System.Globalization;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll compaction-levels [--set search] [--docs 200000] [--levels 1,3,6,9,12,15,19] [--reads 400000] [--rounds 8] [--dictionary-bytes 65536] [--samples 2000]</c>:
/// writes one set of <c>storage-cost</c> (compression on at level 1, the baseline every row is compacted from, batches of 1,000, the first tenth written again so every body
/// is under the collection's current dictionary) into a store on real files, copies the store once per level and
/// compacts each copy with <see cref="DocumentCompressionOptions.CompactionLevel"/> at that level, then reads the same
/// random ids from every copy, the copies alternated each round. Prints per level the compaction's time, the file, the
/// stored bytes per body, and the median read (the first round left out).
/// </summary>
public static class CompactionLevelsCommand
{
    public const string Command = "compaction-levels";

    public static async Task<int> RunAsync(string[] args)
    {
        string set = Option(args, "--set", "search");
        int docs = int.Parse(Option(args, "--docs", "200000"), CultureInfo.InvariantCulture);
        int[] levels = Array.ConvertAll(Option(args, "--levels", "1,3,6,9,12,15,19").Split(','), l => int.Parse(l, CultureInfo.InvariantCulture));
        int reads = int.Parse(Option(args, "--reads", "400000"), CultureInfo.InvariantCulture);
        int rounds = int.Parse(Option(args, "--rounds", "8"), CultureInfo.InvariantCulture);
        var defaults = new DocumentCompressionOptions();
        var trained = defaults with
        {
            DictionaryBytes = int.Parse(Option(args, "--dictionary-bytes", defaults.DictionaryBytes.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture),
            TrainingSamples = int.Parse(Option(args, "--samples", defaults.TrainingSamples.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture),
        };

        (byte[][] records, string description) = StorageCostSets.Load(set, docs, 720);
        docs = records.Length;
        string work = Path.Combine(Path.GetTempPath(), "folio-compaction-levels-" + Environment.ProcessId);
        string written = Path.Combine(work, "written");
        try
        {
            Console.WriteLine($"Writing {docs:N0} of {description} …");
            await WriteAsync(written, records, trained);
            var stores = new DocumentStore[levels.Length];
            Console.WriteLine();
            Console.WriteLine($"Command: `dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll {Command} {string.Join(' ', args)}`");
            Console.WriteLine();
            Console.WriteLine("| level | compaction | file after | stored B per body | read ns (median) |");
            Console.WriteLine("|---:|---:|---:|---:|---:|");
            var lines = new string[levels.Length];
            for (int i = 0; i < levels.Length; i++)
            {
                string copy = Path.Combine(work, "level-" + levels[i]);
                Directory.CreateDirectory(copy);
                foreach (string file in Directory.GetFiles(written))
                    File.Copy(file, Path.Combine(copy, Path.GetFileName(file)));
                stores[i] = DocumentStore.Open(StorageOptions.ForPath(copy), trained with { Level = 1, CompactionLevel = levels[i] });
                var clock = Stopwatch.StartNew();
                var result = stores[i].Compact();
                double seconds = clock.Elapsed.TotalSeconds;
                using var reader = stores[i].OpenReader();
                long stored = 0, documents = 0;
                foreach (CollectionStorage collection in reader.CollectionStorage())
                {
                    stored += collection.StoredBytes;
                    documents += collection.Documents;
                }
                lines[i] = $"| {levels[i]} | {seconds:0.00} s | {result.SizeAfter / 1e6:0.00} MB | {stored / (double)documents:0.0} |";
            }
            double[] medians = MedianReads(stores, docs, reads, rounds);
            for (int i = 0; i < levels.Length; i++)
            {
                Console.WriteLine($"{lines[i]} {medians[i]:N0} |");
                stores[i].Dispose();
            }
            return 0;
        }
        finally
        {
            if (Directory.Exists(work))
                Directory.Delete(work, recursive: true);
        }
    }

    private static async Task WriteAsync(string directory, byte[][] records, DocumentCompressionOptions trained)
    {
        using var store = DocumentStore.Open(StorageOptions.ForPath(directory), trained with { Level = 1, CompactionLevel = 1 });
        await WriteRangeAsync(store, records, 0, records.Length);
        await WriteRangeAsync(store, records, 0, records.Length / 10);
    }

    private static async Task WriteRangeAsync(DocumentStore store, byte[][] records, int from, int to)
    {
        for (int first = from; first < to; first += 1000)
        {
            var commands = new List<DocumentCommand>(1000);
            for (int n = first; n < Math.Min(to, first + 1000); n++)
                commands.Add(new DocumentCommand(DocumentCommandType.Put, "records/" + n.ToString(CultureInfo.InvariantCulture), PreparedDocument.Parse(records[n]), null));
            await store.BatchAsync(commands);
            await store.Compression.WhenTrainingsDoneAsync();
        }
    }

    private static double[] MedianReads(DocumentStore[] stores, int docs, int reads, int rounds)
    {
        var random = new Random(1);
        var ids = new string[reads];
        for (int i = 0; i < reads; i++)
            ids[i] = "records/" + random.Next(docs).ToString(CultureInfo.InvariantCulture);
        var samples = new List<double>[stores.Length];
        for (int i = 0; i < stores.Length; i++)
            samples[i] = [];
        for (int round = 0; round < rounds; round++)
        {
            for (int i = 0; i < stores.Length; i++)
            {
                var clock = Stopwatch.StartNew();
                using (var reader = stores[i].OpenReader())
                {
                    foreach (string id in ids)
                    {
                        if (!reader.TryGet(id, out var document) || document.Json.IsEmpty)
                            throw new InvalidOperationException($"{id} did not read back.");
                    }
                }
                if (round > 0)
                    samples[i].Add(clock.Elapsed.TotalNanoseconds / reads);
            }
        }
        var medians = new double[stores.Length];
        for (int i = 0; i < stores.Length; i++)
        {
            samples[i].Sort();
            medians[i] = samples[i][samples[i].Count / 2];
        }
        return medians;
    }

    private static string Option(string[] args, string name, string fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : fallback;
    }
}
