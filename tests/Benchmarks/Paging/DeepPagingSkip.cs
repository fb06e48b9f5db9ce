using System.Diagnostics;
using System.Globalization;
using System.Text;
using Folio.Benchmarks.Storage;
using Folio.Storage;
using Folio.Storage.Documents;
using Folio.Storage.Transactions;

namespace Folio.Benchmarks.Paging;

/// <summary>
/// How long a listing takes to skip to a deep row: <see cref="DocumentCursor.Skip"/> (jumping within index leaves)
/// beside the stepping skip it replaced (one <see cref="DocumentCursor.MoveNext"/> per skipped document), on one
/// store on disk with a collection of <c>--docs</c> documents between two smaller ones. Each figure is the median
/// of <c>--runs</c> fresh cursors on one reader; both ways must land on the same document.
/// <code>dotnet run -c Release --project tests/Benchmarks -- paging-skip [--docs 1000000] [--runs 5] [--dir /tmp]</code>
/// </summary>
internal static class DeepPagingSkip
{
    public const string Command = "paging-skip";
    private const int Neighbours = 20_000;
    private const int Batch = 10_000;

    public static async Task<int> RunAsync(string[] args)
    {
        int documents = 1_000_000, runs = 5;
        var directory = Path.GetTempPath();
        for (var i = 0; i + 1 < args.Length; i += 2)
        {
            switch (args[i])
            {
                case "--docs": documents = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--runs": runs = int.Parse(args[i + 1], CultureInfo.InvariantCulture); break;
                case "--dir": directory = args[i + 1]; break;
                default:
                    Console.Error.WriteLine("usage: paging-skip [--docs N] [--runs N] [--dir PATH]");
                    return 2;
            }
        }

        var root = StorageWorkload.FreshDirectory(directory, $"folio-paging-skip-{Environment.ProcessId}");
        try
        {
            using var store = DocumentStore.Open(StorageOptions.ForPath(root));
            var loading = Stopwatch.StartNew();
            await LoadAsync(store, documents);
            Console.Error.WriteLine($"loaded {documents:N0} orders and {2 * Neighbours:N0} neighbours in {loading.Elapsed.TotalSeconds:F0} s");

            var load = MachineInfo.LoadAverage();
            using var reader = store.OpenReader();
            using var pages = store.Environment.BeginRead();
            var total = documents + 2 * Neighbours;
            Console.WriteLine($"paging-skip: {documents:N0} documents in Orders, {total:N0} in all; median of {runs} runs; load {load}");
            Console.WriteLine();
            Console.WriteLine("| listing | skip to row | leaves in its tree | stepping (ms) | Skip (ms) | Skip / stepping |");
            Console.WriteLine("|---|---:|---:|---:|---:|---:|");
            Compare("collection Orders", LeafPages(pages, DocumentStore.CollectionDocsTree), () => reader.ByCollection("Orders"), 10_000, runs);
            Compare("collection Orders", LeafPages(pages, DocumentStore.CollectionDocsTree), () => reader.ByCollection("Orders"), documents - 1, runs);
            Compare("id prefix orders/", LeafPages(pages, DocumentStore.DocsTree), () => reader.ByIdPrefix("orders/"), documents - 1, runs);
            Compare("all by etag (merge of 3 collections)", LeafPages(pages, DocumentStore.CollectionDocsTree), () => reader.ByEtag(), total - 1, runs);
            Console.WriteLine();
            Console.WriteLine($"load at end {MachineInfo.LoadAverage()}");
            return 0;
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    /// <summary>Companies, then orders, then users: the orders' index entries have other keys on both sides.</summary>
    private static async Task LoadAsync(DocumentStore store, int documents)
    {
        await LoadCollectionAsync(store, "Companies", "companies", Neighbours);
        await LoadCollectionAsync(store, "Orders", "orders", documents);
        await LoadCollectionAsync(store, "Users", "users", Neighbours);
    }

    private static async Task LoadCollectionAsync(DocumentStore store, string collection, string idPrefix, int count)
    {
        var commands = new List<DocumentCommand>(Batch);
        for (var i = 1; i <= count; i++)
        {
            var json = $"{{\"Company\":\"companies/{i % 91}\",\"Freight\":{i % 1000}.25,\"ShipTo\":{{\"City\":\"City {i % 300}\"}},\"@metadata\":{{\"@collection\":\"{collection}\"}}}}";
            commands.Add(new DocumentCommand(DocumentCommandType.Put, $"{idPrefix}/{i}", PreparedDocument.Parse(Encoding.UTF8.GetBytes(json)), null));
            if (commands.Count == Batch || i == count)
            {
                await store.BatchAsync(commands);
                commands.Clear();
            }
        }
    }

    /// <summary>The leaf pages of a whole tree (the neighbouring collections' entries included).</summary>
    private static long LeafPages(ReadTransaction transaction, string tree) => transaction.OpenTree(tree)!.Header.LeafPages;

    private static void Compare(string listing, long? leaves, Func<DocumentCursor> open, int row, int runs)
    {
        var stepping = new double[runs];
        var skipping = new double[runs];
        for (var run = 0; run < runs; run++)
        {
            var (steppedMs, steppedId) = Time(open(), row, Step);
            var (skippedMs, skippedId) = Time(open(), row, (cursor, count) => cursor.Skip(count));
            if (steppedId != skippedId)
                throw new InvalidOperationException($"{listing}: stepping to row {row} reached {steppedId}, Skip reached {skippedId}.");
            stepping[run] = steppedMs;
            skipping[run] = skippedMs;
        }
        var before = Median(stepping);
        var after = Median(skipping);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {listing} | {row:N0} | {leaves?.ToString("N0", CultureInfo.InvariantCulture) ?? "n/a"} | {before:F1} | {after:F2} | {after / before:F4} |"));
    }

    /// <summary>Skips <paramref name="row"/> documents the given way, then reads the row's id as the page would.</summary>
    private static (double Milliseconds, string Id) Time(DocumentCursor cursor, int row, Func<DocumentCursor, int, int> skip)
    {
        var watch = Stopwatch.StartNew();
        var skipped = skip(cursor, row);
        watch.Stop();
        if (skipped != row || !cursor.MoveNext())
            throw new InvalidOperationException($"Skipping to row {row} skipped {skipped}.");
        return (watch.Elapsed.TotalMilliseconds, cursor.Current.IdString);
    }

    /// <summary>The stepping skip <see cref="DocumentCursor.Skip"/> replaced.</summary>
    private static int Step(DocumentCursor cursor, int count)
    {
        var skipped = 0;
        while (skipped < count && cursor.MoveNext())
            skipped++;
        return skipped;
    }

    private static double Median(double[] values)
    {
        Array.Sort(values);
        return values[values.Length / 2];
    }
}
