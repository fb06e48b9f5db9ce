using System.Globalization;
using System.Text;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Platform;

namespace Folio.CrashWriter;

/// <summary>
/// The documents mode (<c>dotnet Folio.CrashWriter.dll &lt;directory&gt; &lt;seed&gt; documents</c>): writes documents
/// <c>crash/n</c> in batches through several tasks, with compression training a dictionary after 60 bodies and
/// the documents' shape switching every 200 numbers, so dictionaries are trained and retrained while the process
/// may be killed. After each batch commits, one line "ACK n crc" per document (the CRC-32C of the JSON sent).
/// </summary>
internal static class DocumentLoop
{
    public const string IdPrefix = "crash/";
    private const int Tasks = 3;
    private const int BatchSize = 10;
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
        var compression = new DocumentCompressionOptions { TrainingSamples = 60, DictionaryBytes = 4 * 1024, RatioWindowDocuments = 30 };
        using var store = DocumentStore.Open(options, compression);
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
            var commands = new List<DocumentCommand>(BatchSize);
            var acks = new List<string>(BatchSize);
            for (var i = 0; i < BatchSize; i++)
            {
                var number = Interlocked.Increment(ref _lastNumber);
                var json = Json(number, random);
                commands.Add(new DocumentCommand(DocumentCommandType.Put, IdPrefix + number.ToString(CultureInfo.InvariantCulture), PreparedDocument.Parse(json), null));
                acks.Add($"ACK {number} {Crc32C.Compute(json):X8}");
            }
            await store.BatchAsync(commands);
            foreach (var ack in acks)
                print(ack);
        }
    }

    private static byte[] Json(long number, Random random)
    {
        var text = (number / 200) % 2 == 0
            ? $$"""{"Company":"companies/{{random.Next(500)}}","Freight":{{random.Next(30000)}},"City":"{{(random.Next(2) == 0 ? "Lyon" : "Graz")}}","Lines":[{"Product":"products/{{random.Next(77)}}","Quantity":{{random.Next(50)}}}],"Notes":"deliver before noon to the back door"}"""
            : $$"""{"sensor_identifier":"probe-{{random.Next(9999)}}","reading_kelvin":{{random.Next(40000)}},"battery":{"volts":{{random.Next(420)}},"state":"{{(random.Next(2) == 0 ? "charging" : "draining")}}"},"calibration_notes":"zero offset applied at factory"}""";
        return Encoding.UTF8.GetBytes(text);
    }

    /// <summary>
    /// The highest number committed: batches commit in about the order their numbers were taken, so it is among the
    /// last documents by etag (reading every document each open made the kill cycles slower the longer they ran).
    /// </summary>
    private static long HighestNumber(DocumentStore store)
    {
        using var reader = store.OpenReader();
        long highest = 0;
        var cursor = reader.ByEtag(Math.Max(0, reader.LastEtag - 1000));
        while (cursor.MoveNext())
            highest = Math.Max(highest, long.Parse(cursor.Current.IdString.AsSpan(IdPrefix.Length), CultureInfo.InvariantCulture));
        return highest;
    }
}
