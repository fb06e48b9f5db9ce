using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.BulkLoad;
using Folio.Storage.Documents.Compression;
using ZstdSharp;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- dictionary-cost [--samples 2000] [--docs 20000] [--bytes 720] [--level 1]</c>:
/// what document compression costs the threads that pay for it, on generated orders: the CPU time of one
/// dictionary training (64 KB from the samples, the store's default, run beside the writes) and the time per
/// body of compressing with and without the trained dictionary (done by the write transaction's thread).
/// </summary>
public static class DictionaryCostCommand
{
    public const string Command = "dictionary-cost";

    public static int Run(string[] args)
    {
        int samples = IntOption(args, "--samples", 2000);
        int docs = IntOption(args, "--docs", 20_000);
        int bytes = IntOption(args, "--bytes", 720);
        int level = IntOption(args, "--level", 1);
        byte[][] records = RecordGenerator.GenerateMany(samples + docs, bytes);
        var training = new List<byte[]>(samples);
        for (int i = 0; i < samples; i++)
            training.Add(records[i]);

        var process = Process.GetCurrentProcess();
        byte[] trained = [];
        for (int round = 0; round < 3; round++)
        {
            process.Refresh();
            TimeSpan cpu = process.TotalProcessorTime;
            var watch = Stopwatch.StartNew();
            trained = DictBuilder.TrainFromBuffer(training, 64 * 1024);
            process.Refresh();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"training {round + 1}: {samples:N0} samples -> {trained.Length:N0} B dictionary, {watch.Elapsed.TotalMilliseconds:F0} ms wall, {(process.TotalProcessorTime - cpu).TotalMilliseconds:F0} ms CPU"));
        }

        using var withDictionary = new CompressionDictionary(1, "orders", trained, level);
        using var without = new CompressionDictionary(0, "orders", [], level);
        foreach ((string name, CompressionDictionary dictionary) in new[] { ("with the dictionary", withDictionary), ("without a dictionary", without) })
        {
            var destination = new byte[64 * 1024];
            long raw = 0, stored = 0;
            var watch = Stopwatch.StartNew();
            for (int round = 0; round < 2; round++)
            {
                // The first round warms the code up; the second is timed.
                watch.Restart();
                raw = 0;
                stored = 0;
                for (int i = samples; i < records.Length; i++)
                {
                    if (dictionary.TryCompress(records[i], destination, records[i].Length, out int written))
                        stored += written;
                    else
                        stored += records[i].Length;
                    raw += records[i].Length;
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"compress {name}, level {level}: {watch.Elapsed.TotalMicroseconds / docs:F2} us per body, {stored / (double)raw:F3}x of {raw / (double)docs:F0} B"));
        }

        return 0;
    }

    private static int IntOption(string[] args, string name, int fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? int.Parse(args[at + 1], CultureInfo.InvariantCulture) : fallback;
    }
}
