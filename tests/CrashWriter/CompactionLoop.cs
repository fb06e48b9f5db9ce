using System.Globalization;
using System.Text;
using Folio.Storage;
using Folio.Storage.Compaction;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Platform;

namespace Folio.CrashWriter;

/// <summary>
/// The compaction modes: documents <c>compact/n</c> (n below <see cref="IdSpace"/>) put, updated and deleted
/// through the merger while the store compacts itself over and over in the same process.
/// <list type="bullet">
/// <item><c>compact-seed</c> puts every id once in large batches, prints "SEEDED" and exits 0.</item>
/// <item><c>compact</c> (compression on) and <c>compact-plain</c> (off) write until killed.</item>
/// </list>
/// Each writing task owns the ids n with n % tasks == its index and waits for one batch before drawing the next,
/// so an id has at most one write in flight. Before a batch is enqueued, one line per command says what it will
/// leave: "TRY id crc" (the CRC-32C of the JSON sent) or "TRY id -" (deleted); once the batch has committed,
/// "PUT id crc" or "DEL id". The compaction loop prints "PHASE name" whenever a compaction's phase changes and
/// "COMPACTED pause total" when one returns (how long writes waited and the whole compaction took, in ms).
/// </summary>
internal static class CompactionLoop
{
    public const string IdPrefix = "compact/";

    /// <summary>Large enough that one compaction copies for tens of milliseconds.</summary>
    public const int IdSpace = 24_000;

    private const int Tasks = 3;
    private const int BatchSize = 40;
    private const int SeedBatchSize = 500;

    public static async Task<int> RunAsync(string directory, int seed, string mode, Action<string> print)
    {
        var compression = mode == "compact-plain"
            ? DocumentCompressionOptions.Disabled
            : new DocumentCompressionOptions { TrainingSamples = 200, DictionaryBytes = 8 * 1024, RatioWindowDocuments = 100 };
        var options = StorageOptions.ForPath(directory) with
        {
            JournalFileSize = 1 << 20,
            FlushThresholdBytes = 1 << 20,
            FlushInterval = TimeSpan.FromMilliseconds(20),
            MergerMaxDuration = TimeSpan.FromMilliseconds(5),
        };
        using var store = DocumentStore.Open(options, compression);
        print($"OPENED {store.Environment.LastCommittedTransactionId}");
        if (mode == "compact-seed")
        {
            await SeedAsync(store, new Random(seed), print);
            print("SEEDED");
            return 0;
        }

        var workers = new Task[Tasks + 1];
        workers[0] = Task.Factory.StartNew(() => CompactForever(store, print), TaskCreationOptions.LongRunning);
        for (var i = 0; i < Tasks; i++)
        {
            var task = i;
            var random = new Random(seed * 31 + i);
            workers[i + 1] = Task.Run(() => WriteAsync(store, task, random, print));
        }
        await await Task.WhenAny(workers);
        return 1;
    }

    private static async Task SeedAsync(DocumentStore store, Random random, Action<string> print)
    {
        for (var first = 0; first < IdSpace; first += SeedBatchSize)
        {
            var commands = new List<DocumentCommand>(SeedBatchSize);
            var acks = new List<string>(SeedBatchSize);
            for (var n = first; n < Math.Min(IdSpace, first + SeedBatchSize); n++)
            {
                var json = Json(n, random);
                commands.Add(new DocumentCommand(DocumentCommandType.Put, Id(n), PreparedDocument.Parse(json), null));
                acks.Add($"PUT {n} {Crc32C.Compute(json):X8}");
            }
            await store.BatchAsync(commands);
            foreach (var ack in acks)
                print(ack);
        }
    }

    private static void CompactForever(DocumentStore store, Action<string> print)
    {
        var last = (CompactionPhase)(-1);
        while (true)
        {
            var result = store.Compact(progress =>
            {
                if (progress.Phase == last)
                    return;
                last = progress.Phase;
                print($"PHASE {progress.Phase}");
            });
            last = (CompactionPhase)(-1);
            print(FormattableString.Invariant($"COMPACTED {result.WritesPaused.TotalMilliseconds:F0} {result.Elapsed.TotalMilliseconds:F0}"));
        }
    }

    private static async Task WriteAsync(DocumentStore store, int task, Random random, Action<string> print)
    {
        var owned = IdSpace / Tasks;
        while (true)
        {
            var commands = new List<DocumentCommand>(BatchSize);
            var tries = new List<string>(BatchSize);
            var acks = new List<string>(BatchSize);
            for (var i = 0; i < BatchSize; i++)
            {
                var n = random.Next(owned) * Tasks + task;
                if (random.Next(100) < 35)
                {
                    commands.Add(new DocumentCommand(DocumentCommandType.Delete, Id(n), null, null));
                    tries.Add($"TRY {n} -");
                    acks.Add($"DEL {n}");
                }
                else
                {
                    var json = Json(n, random);
                    var checksum = Crc32C.Compute(json).ToString("X8", CultureInfo.InvariantCulture);
                    commands.Add(new DocumentCommand(DocumentCommandType.Put, Id(n), PreparedDocument.Parse(json), null));
                    tries.Add($"TRY {n} {checksum}");
                    acks.Add($"PUT {n} {checksum}");
                }
            }
            foreach (var line in tries)
                print(line);
            await store.BatchAsync(commands);
            foreach (var line in acks)
                print(line);
        }
    }

    private static string Id(int n) => IdPrefix + n.ToString(CultureInfo.InvariantCulture);

    private static byte[] Json(int n, Random random)
    {
        var notes = new string((char)('a' + random.Next(26)), random.Next(20, 300));
        var text = n % 2 == 0
            ? $$"""{"Company":"companies/{{random.Next(500)}}","Freight":{{random.Next(30000)}},"City":"{{(random.Next(2) == 0 ? "Lyon" : "Graz")}}","Lines":[{"Product":"products/{{random.Next(77)}}","Quantity":{{random.Next(50)}}}],"Notes":"{{notes}}"}"""
            : $$"""{"sensor_identifier":"probe-{{random.Next(9999)}}","reading_kelvin":{{random.Next(40000)}},"battery":{"volts":{{random.Next(420)}}},"calibration_notes":"{{notes}}"}""";
        return Encoding.UTF8.GetBytes(text);
    }
}
