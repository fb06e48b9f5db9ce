using System.Diagnostics;
using System.Globalization;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Benchmarks.Search;

/// <summary>
/// <c>index-update</c>: what replacing entries costs Folio's search index. Loads the search benchmark's records (with
/// their full-text field) in batches of 10,000, then replaces randomly chosen ones, a batch of 10,000 at a time, each
/// with another record's values: every replacement deletes an entry with about 17 text terms and adds one. Prints the
/// load and update rates, the CPU they took, the p50 and p99 of the search benchmark's full-text queries (two words,
/// top 25 by score) right after the updates, of the same two words as phrases (every entry with both words has its
/// positions read) and of more-like-this queries whose source is the first entry with the first word (its text's terms
/// found, then searched, top 25), a check query's count, and the size after close.
/// </summary>
internal static class IndexUpdateCommand
{
    public const string Command = "index-update";
    private const string Usage = "Usage: index-update [--records N] [--updates N] [--queries N] [--data DIR]";

    public static int Run(string[] args)
    {
        var records = 200_000;
        var updates = 200_000;
        var queries = 1_000;
        var directory = SearchBenchData.DefaultDirectory;
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--records"] = v => records = CommandOptions.Int(v),
            ["--updates"] = v => updates = CommandOptions.Int(v),
            ["--queries"] = v => queries = CommandOptions.Int(v),
            ["--data"] = v => directory = v,
        };
        if (!CommandOptions.Parse(args, Usage, values, []))
            return 2;
        SearchBenchData.EnsureWritten(directory, records, queries);
        var data = SearchBenchData.ReadRecords(SearchBenchData.RecordsPath(directory, records));
        var texts = SearchBenchData.ReadQueries(SearchBenchData.QueriesPath(directory, records, queries))["text"];
        var indexDirectory = Path.Combine(directory, "index-update");
        SearchIndex.Drop(indexDirectory);

        using (var index = SearchIndex.Open(StorageOptions.ForPath(indexDirectory), FolioSearchLoad.Schema()))
        {
            var (loadSeconds, loadCpu) = Timed(() =>
            {
                for (var start = 0; start < data.Length; start += FolioSearchLoad.BatchSize)
                    Write(index, start, Math.Min(data.Length, start + FolioSearchLoad.BatchSize), i => data[i].Id, i => data[i]);
            });
            Console.WriteLine($"load: {data.Length:N0} records in {loadSeconds:0.00} s ({data.Length / loadSeconds:N0}/s), CPU {loadCpu:0.00} s");

            var random = new Random(17);
            var (updateSeconds, updateCpu) = Timed(() =>
            {
                for (var done = 0; done < updates; done += FolioSearchLoad.BatchSize)
                {
                    var count = Math.Min(FolioSearchLoad.BatchSize, updates - done);
                    Write(index, 0, count, _ => data[random.Next(data.Length)].Id, _ => data[random.Next(data.Length)]);
                }
            });
            Console.WriteLine($"update: {updates:N0} replacements in {updateSeconds:0.00} s ({updates / updateSeconds:N0}/s), CPU {updateCpu:0.00} s");
            Console.WriteLine($"full-text after the updates: {TextQueries(index, texts, text => new FullTextQuery("text", text))}");
            Console.WriteLine($"phrases after the updates: {TextQueries(index, texts, text => new PhraseQuery("text", text))}");
            var like = new MoreLikeThisOptions { MinimumTermFrequency = 1 };
            Console.WriteLine($"more like this after the updates: {TextQueries(index, texts, text => new MoreLikeThisQuery(new TermQuery("text", FieldValue.From(text.Split(' ')[0])), [], ["text"], like))}");
            using var searcher = index.OpenSearcher();
            Console.WriteLine($"check: {searcher.EntryCount:N0} entries; text:time in {searcher.Count(new FullTextQuery("text", "time")):N0}");
        }
        Console.WriteLine($"size after close: {DiskUsage.Bytes(indexDirectory) / 1e6:0.0} MB");
        SearchIndex.Drop(indexDirectory);
        return 0;
    }

    private static void Write(SearchIndex index, int start, int end, Func<int, int> idAt, Func<int, BenchRecord> valuesAt)
    {
        using var batch = index.BeginBatch();
        for (var i = start; i < end; i++)
            batch.Add(FolioSearchLoad.Entry(idAt(i), valuesAt(i)));
        batch.Commit();
    }

    /// <summary>Each query once to warm up, then each timed: a searcher per query, as a server opens one.</summary>
    private static string TextQueries(SearchIndex index, List<string[]> texts, Func<string, Query> query)
    {
        var micros = new double[texts.Count];
        for (var round = 0; round < 2; round++)
        {
            for (var i = 0; i < texts.Count; i++)
            {
                var started = Stopwatch.GetTimestamp();
                using var searcher = index.OpenSearcher();
                searcher.Search(query(texts[i][0]), 0, FolioSearchLoad.TopK, [Folio.Indexing.Collectors.SortField.Score]);
                micros[i] = Stopwatch.GetElapsedTime(started).TotalMicroseconds;
            }
        }
        Array.Sort(micros);
        return $"p50 {micros[micros.Length / 2]:N0} µs, p99 {micros[micros.Length * 99 / 100]:N0} µs over {micros.Length:N0} queries";
    }

    private static (double Seconds, double Cpu) Timed(Action action)
    {
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var watch = Stopwatch.StartNew();
        action();
        return (watch.Elapsed.TotalSeconds, (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalSeconds);
    }
}
