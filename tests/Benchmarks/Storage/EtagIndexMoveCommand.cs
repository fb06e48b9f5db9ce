using System.Diagnostics;
using System.Globalization;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Reporting;
using Folio.Storage.Tests.Support;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// <c>dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll etag-index-move [--set search] [--docs 1000000] [--from 4|3]</c>:
/// writes one set of <c>storage-cost</c> into a store on real files (batches of 1,000), lays its etag index out as
/// documents format 4 (an entry a document) or 3 (two trees) kept it, then times the open that moves it to format 5's
/// blocks. Prints the bytes of the etag trees in each format per document, and the open's time.
/// </summary>
public static class EtagIndexMoveCommand
{
    public const string Command = "etag-index-move";

    public static async Task<int> RunAsync(string[] args)
    {
        string set = StorageCostCommand.Option(args, "--set", "search");
        int docs = int.Parse(StorageCostCommand.Option(args, "--docs", "1000000"), CultureInfo.InvariantCulture);
        int from = int.Parse(StorageCostCommand.Option(args, "--from", "4"), CultureInfo.InvariantCulture);
        (byte[][] records, string description) = StorageCostSets.Load(set, docs, 720);
        docs = records.Length;
        string work = Path.Combine(Path.GetTempPath(), "folio-etag-index-move-" + Environment.ProcessId);
        try
        {
            Console.WriteLine($"Writing {docs:N0} of {description} …");
            double written;
            using (var store = DocumentStore.Open(StorageOptions.ForPath(work)))
            {
                for (int first = 0; first < docs; first += 1000)
                {
                    var commands = new List<DocumentCommand>(1000);
                    for (int n = first; n < Math.Min(docs, first + 1000); n++)
                        commands.Add(new DocumentCommand(DocumentCommandType.Put, "records/" + n.ToString(CultureInfo.InvariantCulture), PreparedDocument.Parse(records[n]), null));
                    await store.BatchAsync(commands);
                }
                written = Bytes(store.Environment.ReportSpace(), DocumentStore.CollectionDocsTree, CollectionNumbers.Tree);
                if (from == 3)
                    Format3EtagIndexes.Write(store);
                else
                    Format4EtagIndex.Write(store);
            }
            double old;
            using (var environment = StorageEnvironment.Open(StorageOptions.ForPath(work)))
            {
                old = from == 3
                    ? Bytes(environment.ReportSpace(), Format3EtagIndexes.EtagsTree, Format3EtagIndexes.CollectionEtagsTree)
                    : Bytes(environment.ReportSpace(), Format4EtagIndex.Tree, CollectionNumbers.Tree);
            }
            var clock = Stopwatch.StartNew();
            double moved;
            using (var store = DocumentStore.Open(StorageOptions.ForPath(work)))
            {
                double seconds = clock.Elapsed.TotalSeconds;
                moved = Bytes(store.Environment.ReportSpace(), DocumentStore.CollectionDocsTree, CollectionNumbers.Tree);
                Console.WriteLine();
                Console.WriteLine($"Command: `dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll {Command} {string.Join(' ', args)}` (load {MachineInfo.LoadAverage()})");
                Console.WriteLine();
                Console.WriteLine($"| documents | format {from} etag trees, B a document | format 5 as written | format 5 after the move | the open that moved it |");
                Console.WriteLine("|---:|---:|---:|---:|---:|");
                Console.WriteLine($"| {docs:N0} | {old / docs:0.0} | {written / docs:0.0} | {moved / docs:0.0} | {seconds:0.00} s |");
            }
            return 0;
        }
        finally
        {
            if (Directory.Exists(work))
                Directory.Delete(work, recursive: true);
        }
    }

    private static double Bytes(SpaceReport report, string first, string second)
    {
        long pages = 0;
        foreach (TreeSpace tree in report.Trees)
        {
            if (tree.Name == first || tree.Name == second)
                pages += tree.Pages;
        }
        return pages * (double)report.PageSize;
    }
}
