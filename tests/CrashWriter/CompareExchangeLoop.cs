using System.Globalization;
using System.Text;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Platform;

namespace Folio.CrashWriter;

/// <summary>
/// The compare-exchange mode (<c>dotnet Folio.CrashWriter.dll &lt;directory&gt; &lt;seed&gt; cmpxchg</c>): several tasks create
/// entries <c>crash/n</c> (index 0: create only); odd numbers alone, even ones in a cluster-wide batch with the document
/// <c>crashdocs/n</c> and its atomic guard. After each commit, the line "ACK n crc" (the CRC-32C of the entry's JSON).
/// </summary>
internal static class CompareExchangeLoop
{
    public const string KeyPrefix = "crash/";
    public const string DocumentPrefix = "crashdocs/";
    private const int Tasks = 3;
    private static long _lastNumber;

    public static async Task RunAsync(string directory, int seed, Action<string> print)
    {
        var options = StorageOptions.ForPath(directory) with
        {
            JournalFileSize = 256 << 10,
            FlushThresholdBytes = 512 << 10,
            FlushInterval = TimeSpan.FromMilliseconds(20),
            MergerMaxDuration = TimeSpan.FromMilliseconds(5),
        };
        using var store = DocumentStore.Open(options);
        _lastNumber = HighestNumber(store);
        print($"OPENED {store.Environment.LastCommittedTransactionId}");
        var workers = new Task[Tasks];
        for (var i = 0; i < Tasks; i++)
        {
            var random = new Random(seed * 31 + i);
            workers[i] = Task.Run(() => WriteAsync(store, random, print));
        }
        await await Task.WhenAny(workers);
    }

    private static async Task WriteAsync(DocumentStore store, Random random, Action<string> print)
    {
        while (true)
        {
            var number = Interlocked.Increment(ref _lastNumber);
            var text = number.ToString(CultureInfo.InvariantCulture);
            var json = Encoding.UTF8.GetBytes("{\"Object\":{\"n\":" + text + ",\"pad\":\"" + new string('x', random.Next(1, 3000)) + "\"}}");
            if (number % 2 == 1)
            {
                var result = await store.PutCompareExchangeAsync(KeyPrefix + text, 0, json);
                if (!result.Successful)
                    throw new InvalidOperationException($"entry {number} existed before it was created");
            }
            else
            {
                var document = new DocumentCommand(DocumentCommandType.Put, DocumentPrefix + text, PreparedDocument.Parse(Encoding.UTF8.GetBytes($$"""{"n":{{text}}}""")), null);
                var entry = new CompareExchangeCommand(CompareExchangeCommandType.Put, KeyPrefix + text, 0, json);
                await store.ClusterBatchAsync([document], [entry], atomicGuards: true);
            }
            print($"ACK {number} {Crc32C.Compute(json):X8}");
        }
    }

    private static long HighestNumber(DocumentStore store)
    {
        using var reader = store.OpenReader();
        long highest = 0;
        foreach (var entry in reader.CompareExchangeStartingWith(KeyPrefix, 0, int.MaxValue))
            highest = Math.Max(highest, long.Parse(entry.Key.AsSpan(KeyPrefix.Length), CultureInfo.InvariantCulture));
        return highest;
    }
}
