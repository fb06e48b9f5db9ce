using System.Diagnostics;
using System.Globalization;
using System.Text;
using Folio.Benchmarks.BulkLoad;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Documents.Compression;
using Folio.Storage.Reporting;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- id-fill [--docs 200000] [--bytes 720] [--compression off,on] [--shapes sequential,hilo,guid,server] [--compact]</c>:
/// writes the same generated orders straight into an in-memory document store (batches of 1,000, no HTTP)
/// once per id shape and compression setting, and prints the pages and leaf fill of every tree. It isolates
/// what the id shape does to the trees: <c>sequential</c> is <c>orders/1</c> … <c>orders/N</c> (not in key
/// order: <c>orders/10</c> sorts before <c>orders/2</c>), <c>hilo</c> is four clients each taking ranges of 32
/// and writing in turn (<c>orders/17-A</c>), <c>guid</c> is <c>orders/{random guid}</c> and <c>server</c> is
/// <c>orders/</c>, numbered by the store. With <c>--compact</c> each store is then compacted and measured again (a
/// second row), which packs bodies of 4-8 KB into shared runs.
/// </summary>
public static class IdFillCommand
{
    public const string Command = "id-fill";

    private const int Batch = 1000;

    public static async Task<int> RunAsync(string[] args)
    {
        int docs = IntOption(args, "--docs", 200_000);
        int bytes = IntOption(args, "--bytes", 720);
        string[] compression = Option(args, "--compression", "off,on").Split(',');
        string[] shapes = Option(args, "--shapes", "sequential,hilo,guid,server").Split(',');
        bool compact = Array.IndexOf(args, "--compact") >= 0;

        byte[][] records = RecordGenerator.GenerateMany(docs, bytes);
        long raw = 0;
        foreach (byte[] record in records)
            raw += record.Length;
        var documents = new PreparedDocument[docs];
        for (int i = 0; i < docs; i++)
            documents[i] = PreparedDocument.Parse(records[i]);

        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"Command: `dotnet run -c Release --project tests/Benchmarks -- {Command} {string.Join(' ', args)}`");
        text.AppendLine(CultureInfo.InvariantCulture, $"Orders: {docs:N0}, {raw / (double)docs:F0} B of JSON each, {raw / 1e6:F1} MB raw; in-memory store, batches of {Batch:N0}.");
        text.AppendLine();
        text.AppendLine("| shape | compression | docs leaf pages | docs leaf fill | docs overflow pages | docs overflow fill | docs MB | collection etag index fill | all trees MB | × raw | write s |");
        text.AppendLine("|---|---|---|---|---|---|---|---|---|---|---|---|");
        foreach (string shape in shapes)
        {
            string[] ids = Ids(shape.Trim(), docs);
            foreach (string setting in compression)
            {
                bool on = setting.Trim() == "on";
                var options = on ? new DocumentCompressionOptions() : DocumentCompressionOptions.Disabled;
                using DocumentStore store = DocumentStore.Open(StorageOptions.InMemory(), options);
                var watch = Stopwatch.StartNew();
                var commands = new List<DocumentCommand>(Batch);
                for (int first = 0; first < docs; first += Batch)
                {
                    commands.Clear();
                    for (int i = first; i < Math.Min(docs, first + Batch); i++)
                        commands.Add(new DocumentCommand(DocumentCommandType.Put, ids[i], documents[i], null));
                    await store.BatchAsync(commands);
                }

                await store.Compression.WhenTrainingsDoneAsync();
                double seconds = watch.Elapsed.TotalSeconds;
                Row(text, store, shape, setting, raw, seconds);
                Console.Error.WriteLine($"{shape} {setting}: done in {seconds:F1} s");
                if (compact)
                {
                    watch.Restart();
                    store.Compact();
                    Row(text, store, shape, setting + ", compacted", raw, watch.Elapsed.TotalSeconds);
                }
            }
        }

        Console.WriteLine(text.ToString());
        return 0;
    }

    private static void Row(StringBuilder text, DocumentStore store, string shape, string setting, long raw, double seconds)
    {
        SpaceReport report = store.Environment.ReportSpace();
        TreeSpace docsTree = Find(report, DocumentStore.DocsTree);
        long pages = 0;
        foreach (TreeSpace tree in report.Trees)
            pages += tree.Pages;
        double totalBytes = pages * (double)report.PageSize;
        text.AppendLine(CultureInfo.InvariantCulture,
            $"| {shape} | {setting} | {docsTree.LeafPages:N0} | {docsTree.LeafFill:P1} | {docsTree.OverflowPages:N0} | {docsTree.OverflowFill:P1} | {docsTree.Pages * (double)report.PageSize / 1e6:F1} | {Find(report, DocumentStore.CollectionDocsTree).LeafFill:P1} | {totalBytes / 1e6:F1} | {totalBytes / raw:F2}× | {seconds:F1} |");
    }

    private static TreeSpace Find(SpaceReport report, string name)
    {
        foreach (TreeSpace tree in report.Trees)
        {
            if (tree.Name == name)
                return tree;
        }

        throw new InvalidOperationException($"The store has no tree '{name}'.");
    }

    /// <summary>The ids of one shape in the order a client would write them.</summary>
    private static string[] Ids(string shape, int count)
    {
        var ids = new string[count];
        var random = new Random(42);
        Span<byte> guid = stackalloc byte[16];
        for (int i = 0; i < count; i++)
        {
            switch (shape)
            {
                case "sequential":
                    ids[i] = "orders/" + (i + 1).ToString(CultureInfo.InvariantCulture);
                    break;
                case "hilo":
                    // Client c takes ranges c, c+4, c+8 … of 32 ids; the clients write one document each in turn.
                    int client = i % 4, nth = i / 4;
                    long value = (nth / 32 * 4 + client) * 32L + nth % 32 + 1;
                    ids[i] = "orders/" + value.ToString(CultureInfo.InvariantCulture) + "-A";
                    break;
                case "guid":
                    random.NextBytes(guid);
                    ids[i] = "orders/" + new Guid(guid).ToString();
                    break;
                case "server":
                    ids[i] = "orders/";
                    break;
                default:
                    throw new ArgumentException($"Unknown id shape '{shape}' (sequential, hilo, guid, server).");
            }
        }

        return ids;
    }

    private static string Option(string[] args, string name, string fallback)
    {
        int at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : fallback;
    }

    private static int IntOption(string[] args, string name, int fallback) =>
        int.Parse(Option(args, name, fallback.ToString(CultureInfo.InvariantCulture)), CultureInfo.InvariantCulture);
}
