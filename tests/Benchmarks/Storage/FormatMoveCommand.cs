using System.Diagnostics;
using System.Globalization;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Reporting;
using Folio.Storage.Tests.Support;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll format-move [--set search] [--docs 1000000] [--from 5|4|3]</c>:
/// writes one set of <c>storage-cost</c> into a store on real files (batches of 1,000), lays it out as an older
/// documents format kept it (5: records of a 24-byte header with the collection's name; 4: those and an etag index
/// entry a document; 3: those and two etag trees), then times the open that moves it to the current format. Prints the
/// bytes a document of the documents tree and of the etag trees in each format, and the open's time.
/// </summary>
public static class FormatMoveCommand
{
    public const string Command = "format-move";

    public static async Task<int> RunAsync(string[] args)
    {
        string set = StorageCostCommand.Option(args, "--set", "search");
        int docs = int.Parse(StorageCostCommand.Option(args, "--docs", "1000000"), CultureInfo.InvariantCulture);
        int from = int.Parse(StorageCostCommand.Option(args, "--from", "5"), CultureInfo.InvariantCulture);
        (byte[][] records, string description) = StorageCostSets.Load(set, docs, 720);
        docs = records.Length;
        string work = Path.Combine(Path.GetTempPath(), "folio-format-move-" + Environment.ProcessId);
        try
        {
            Console.WriteLine($"Writing {docs:N0} of {description} …");
            (double Docs, double Etags) written;
            using (var store = DocumentStore.Open(StorageOptions.ForPath(work)))
            {
                for (int first = 0; first < docs; first += 1000)
                {
                    var commands = new List<DocumentCommand>(1000);
                    for (int n = first; n < Math.Min(docs, first + 1000); n++)
                        commands.Add(new DocumentCommand(DocumentCommandType.Put, "records/" + n.ToString(CultureInfo.InvariantCulture), PreparedDocument.Parse(records[n]), null));
                    await store.BatchAsync(commands);
                }
                written = Current(store.Environment.ReportSpace());
                if (from == 3)
                    Format3EtagIndexes.Write(store);
                else if (from == 4)
                    Format4EtagIndex.Write(store);
                else
                    Format5Records.Write(store);
            }
            (double Docs, double Etags) old;
            using (var environment = StorageEnvironment.Open(StorageOptions.ForPath(work)))
            {
                SpaceReport report = environment.ReportSpace();
                old = from switch
                {
                    3 => (Bytes(report, DocumentStore.DocsTree), Bytes(report, Format3EtagIndexes.EtagsTree) + Bytes(report, Format3EtagIndexes.CollectionEtagsTree)),
                    4 => (Bytes(report, DocumentStore.DocsTree), Bytes(report, Format4EtagIndex.Tree) + Bytes(report, CollectionNumbers.Tree)),
                    _ => Current(report),
                };
            }
            var clock = Stopwatch.StartNew();
            using (var store = DocumentStore.Open(StorageOptions.ForPath(work)))
            {
                double seconds = clock.Elapsed.TotalSeconds;
                (double Docs, double Etags) moved = Current(store.Environment.ReportSpace());
                Console.WriteLine();
                Console.WriteLine($"Command: `dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll {Command} {string.Join(' ', args)}` (load {MachineInfo.LoadAverage()})");
                Console.WriteLine();
                Console.WriteLine($"| documents | format {from}: documents tree / etag trees, B a document | format {DocumentStore.DocumentsFormat} as written | format {DocumentStore.DocumentsFormat} after the move | the open that moved it |");
                Console.WriteLine("|---:|---:|---:|---:|---:|");
                Console.WriteLine($"| {docs:N0} | {old.Docs / docs:0.0} / {old.Etags / docs:0.0} | {written.Docs / docs:0.0} / {written.Etags / docs:0.0} | {moved.Docs / docs:0.0} / {moved.Etags / docs:0.0} | {seconds:0.00} s |");
            }
            return 0;
        }
        finally
        {
            if (Directory.Exists(work))
                Directory.Delete(work, recursive: true);
        }
    }

    private static (double Docs, double Etags) Current(SpaceReport report) =>
        (Bytes(report, DocumentStore.DocsTree), Bytes(report, DocumentStore.CollectionDocsTree) + Bytes(report, CollectionNumbers.Tree));

    private static double Bytes(SpaceReport report, string name)
    {
        foreach (TreeSpace tree in report.Trees)
        {
            if (tree.Name == name)
                return tree.Pages * (double)report.PageSize;
        }
        return 0;
    }
}
