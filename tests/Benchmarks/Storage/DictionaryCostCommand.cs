using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.BulkLoad;
using Folio.Storage.Documents.Compression;
using ZstdSharp;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- dictionary-cost [--samples 2000] [--docs 20000] [--bytes 720] [--level 1]</c>:
/// what document compression costs the threads that pay for it, on generated orders: the CPU time of one
/// dictionary training (64 KB from the samples, the store's default, run beside the writes), Zstd's default training
/// against the store's single pass at a few segment sizes (CPU and the ratio each dictionary gives), and the time per
/// body of compressing with and without the trained dictionary, and of a body with the store's metadata compressed
/// whole or as two frames (its client part on the submitting thread, its metadata on the merger's).
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

        CompareTrainings(training, records, samples, level);

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
                    if (dictionary.TryCompress(records[i], destination, records[i].Length, out int written, out _))
                        stored += written;
                    else
                        stored += records[i].Length;
                    raw += records[i].Length;
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"compress {name}, level {level}: {watch.Elapsed.TotalMicroseconds / docs:F2} us per body, {stored / (double)raw:F3}x of {raw / (double)docs:F0} B"));
        }

        SplitCost(records, samples, level);
        return 0;
    }

    /// <summary>
    /// The cost of compressing a stored body as two frames, as the write path does once a dictionary exists: the
    /// client's part on the thread that submits the batch, the store's metadata (about 150 B, known only inside the
    /// write transaction) on the merger's thread. Records get a metadata tail of the stored shape; the dictionary is
    /// trained on such bodies, as the store's are.
    /// </summary>
    private static void SplitCost(byte[][] records, int samples, int level)
    {
        var bodies = new byte[records.Length][];
        var heads = new int[records.Length];
        var date = DateTime.UtcNow;
        for (int i = 0; i < records.Length; i++)
        {
            byte[] head = [.. records[i].AsSpan(0, records[i].Length - 1), .. ",\"@metadata\":{"u8];
            byte[] tail = System.Text.Encoding.UTF8.GetBytes(string.Create(CultureInfo.InvariantCulture,
                $"\"@collection\":\"Orders\",\"@id\":\"orders/{i}\",\"@change-vector\":\"A:{i + 1}-dGhpcyBpcyBhIGRhdGFiYXNlIGlk\",\"@last-modified\":\"{date.AddTicks(i * 1234L):O}\"}}}}"));
            bodies[i] = [.. head, .. tail];
            heads[i] = head.Length;
        }

        byte[] trained = DictBuilder.TrainFromBuffer(bodies[..samples], 64 * 1024);
        using var dictionary = new CompressionDictionary(1, "orders", trained, level);
        var destination = new byte[64 * 1024];
        int docs = records.Length - samples;
        foreach (string part in new[] { "whole body", "client part", "metadata part" })
        {
            var watch = new Stopwatch();
            long raw = 0, stored = 0;
            for (int round = 0; round < 2; round++)
            {
                watch.Restart();
                raw = 0;
                stored = 0;
                for (int i = samples; i < bodies.Length; i++)
                {
                    ReadOnlySpan<byte> input = part switch
                    {
                        "whole body" => bodies[i],
                        "client part" => bodies[i].AsSpan(0, heads[i]),
                        _ => bodies[i].AsSpan(heads[i]),
                    };
                    stored += dictionary.TryCompress(input, destination, input.Length + 64, out int written, out _) ? written : input.Length;
                    raw += input.Length;
                }
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"with a metadata tail, {part}: {watch.Elapsed.TotalMicroseconds / docs:F2} us per body, {raw / (double)docs:F0} B -> {stored / (double)docs:F1} B"));
        }
    }

    /// <summary>
    /// Zstd's default training (five segment sizes searched, each finalized and tested at level 3) against the store's
    /// single fastCover pass at a few fixed segment sizes: CPU per training (second of two runs, so the JIT has
    /// compiled the code once) and the ratio the dictionary gives the bodies after the samples.
    /// </summary>
    private static void CompareTrainings(List<byte[]> training, byte[][] records, int samples, int level)
    {
        var process = Process.GetCurrentProcess();
        var destination = new byte[64 * 1024];
        foreach (uint k in new uint[] { 0, 50, 100, 200, 500, 1000 })
        {
            byte[] dictionary = [];
            TimeSpan cpu = default;
            for (int round = 0; round < 2; round++)
            {
                process.Refresh();
                TimeSpan before = process.TotalProcessorTime;
                dictionary = k == 0 ? DictBuilder.TrainFromBuffer(training, 64 * 1024) : DictionaryTrainer.Train(training, 64 * 1024, level, k);
                process.Refresh();
                cpu = process.TotalProcessorTime - before;
            }

            using var compressor = new CompressionDictionary(1, "orders", dictionary, level);
            long raw = 0, stored = 0;
            for (int i = samples; i < records.Length; i++)
            {
                stored += compressor.TryCompress(records[i], destination, records[i].Length, out int written, out _) ? written : records[i].Length;
                raw += records[i].Length;
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"training {(k == 0 ? "zstd default (searched k, level 3)" : $"single pass k={k}, level {level}")}: {cpu.TotalMilliseconds:F0} ms CPU, {dictionary.Length:N0} B, bodies {stored / (double)raw:F3}x"));
        }
    }

    private static int IntOption(string[] args, string name, int fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? int.Parse(args[at + 1], CultureInfo.InvariantCulture) : fallback;
    }
}
