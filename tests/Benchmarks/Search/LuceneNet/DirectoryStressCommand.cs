using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Folio.Benchmarks.Storage;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Search.Similarities;
using Lucene.Net.Store;
using LuceneDirectory = Lucene.Net.Store.Directory;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- lucenenet-directory-stress [--directory mmap|niofs] [--records N] [--seconds N] [--readers N] [--data DIR]</c>
/// <para>Whether a Lucene.Net directory holds up under the way Folio's Lucene engine uses it: searches on
/// <c>--readers</c> threads through a <see cref="SearcherManager"/> while one writer replaces documents by key
/// in batches, commits each and refreshes the manager, so segments merge away and readers close while others search.
/// Lucene.Net's issue 1013 reports MMapDirectory crashing the process (an access violation) in this pattern: a crash
/// ends the process with a signal, an exception ends the command with exit code 1, a clean run prints its counts.</para>
/// </summary>
internal static class DirectoryStressCommand
{
    public const string Command = "lucenenet-directory-stress";

    private const int WriteBatch = 1_000;

    public static int Run(string[] args)
    {
        var kind = LuceneNetDirectoryKind.MMap;
        var records = 100_000;
        var seconds = 120;
        var readers = 2;
        var data = SearchBenchData.DefaultDirectory;
        var values = new Dictionary<string, Action<string>>(StringComparer.Ordinal)
        {
            ["--directory"] = v => kind = v == "niofs" ? LuceneNetDirectoryKind.NioFs : v == "mmap" ? LuceneNetDirectoryKind.MMap : throw new ArgumentException($"Unknown directory '{v}': niofs or mmap."),
            ["--records"] = v => records = CommandOptions.Int(v),
            ["--seconds"] = v => seconds = CommandOptions.Int(v),
            ["--readers"] = v => readers = CommandOptions.Int(v),
            ["--data"] = v => data = v,
        };
        if (!CommandOptions.Parse(args, $"Usage: {Command} [--directory mmap|niofs] [--records N] [--seconds N] [--readers N] [--data DIR]", values, new Dictionary<string, Action>(StringComparer.Ordinal)))
            return 2;

        SearchBenchData.EnsureWritten(data, records, 1_000);
        var all = SearchBenchData.ReadRecords(SearchBenchData.RecordsPath(data, records));
        var queries = SearchBenchData.ReadQueries(SearchBenchData.QueriesPath(data, records, 1_000));
        var path = Path.Combine(data, $"stress-{kind.ToString().ToLowerInvariant()}-index");
        if (System.IO.Directory.Exists(path))
            System.IO.Directory.Delete(path, recursive: true);
        Console.WriteLine($"{Command}: {kind}, {records:N0} records, {readers} reader threads, {seconds} s; load average {MachineInfo.LoadAverage()}");

        using var analyzer = new EnglishChainAnalyzer();
        using LuceneDirectory directory = kind == LuceneNetDirectoryKind.MMap ? new MMapDirectory(path) : new NIOFSDirectory(path);
        using var writer = new IndexWriter(directory, new IndexWriterConfig(EnglishChainAnalyzer.Version, analyzer) { OpenMode = OpenMode.CREATE, Similarity = new BM25Similarity() });
        var next = 0;
        for (; next < all.Length / 2; next++)
        {
            writer.AddDocument(Keyed(all[next]));
            if ((next + 1) % FolioSearchLoad.BatchSize == 0)
                writer.Commit();
        }
        writer.Commit();
        using var manager = new SearcherManager(directory, null);

        var failures = new ConcurrentQueue<Exception>();
        long searches = 0;
        var stop = new CancellationTokenSource(TimeSpan.FromSeconds(seconds));
        var threads = new Thread[readers];
        for (var t = 0; t < readers; t++)
        {
            var seed = t;
            threads[t] = new Thread(() => Search(manager, analyzer, queries, seed, stop.Token, failures, ref searches)) { IsBackground = true };
            threads[t].Start();
        }

        var commits = 0;
        var watch = Stopwatch.StartNew();
        try
        {
            while (!stop.IsCancellationRequested && failures.IsEmpty)
            {
                // Replacing records already in the index deletes their old versions, so merges drop whole segments.
                for (var i = 0; i < WriteBatch; i++, next++)
                {
                    var record = all[next % all.Length];
                    writer.UpdateDocument(new Term("key", record.Id.ToString(CultureInfo.InvariantCulture)), Keyed(record));
                }
                writer.Commit();
                manager.MaybeRefresh();
                commits++;
            }
        }
        catch (Exception e) when (e is IOException or InvalidOperationException or ObjectDisposedException)
        {
            failures.Enqueue(e);
        }
        stop.Cancel();
        foreach (var thread in threads)
            thread.Join();
        Console.WriteLine(FormattableString.Invariant(
            $"{kind}: {watch.Elapsed.TotalSeconds:0} s, {commits:N0} commits and refreshes of {WriteBatch:N0} replaced records, {Interlocked.Read(ref searches):N0} searches, {failures.Count} failures; load average {MachineInfo.LoadAverage()}"));
        foreach (var failure in failures.Take(5))
            Console.WriteLine(failure);
        return failures.IsEmpty ? 0 : 1;
    }

    private static Document Keyed(BenchRecord record)
    {
        var document = LuceneNetSearchLoad.DocumentOf(record);
        document.Add(new StringField("key", record.Id.ToString(CultureInfo.InvariantCulture), Field.Store.NO));
        return document;
    }

    private static void Search(SearcherManager manager, EnglishChainAnalyzer analyzer, Dictionary<string, List<string[]>> queries, int seed, CancellationToken stop, ConcurrentQueue<Exception> failures, ref long searches)
    {
        var random = new Random(seed);
        try
        {
            while (!stop.IsCancellationRequested)
            {
                var searcher = manager.Acquire();
                try
                {
                    var text = queries["text"][random.Next(queries["text"].Count)];
                    var brand = queries["sort"][random.Next(queries["sort"].Count)];
                    var range = queries["range"][random.Next(queries["range"].Count)];
                    LuceneNetSearchLoad.Keys(searcher, LuceneNetSearchLoad.Search(searcher, LuceneNetSearchLoad.FullText(analyzer, text[0]), null));
                    LuceneNetSearchLoad.Keys(searcher, LuceneNetSearchLoad.Search(searcher, new ConstantScoreQuery(LuceneNetSearchLoad.BrandTerm(brand[0])), LuceneNetSearchLoad.ByTimestamp));
                    LuceneNetSearchLoad.Keys(searcher, LuceneNetSearchLoad.Search(searcher,
                        NumericRangeQuery.NewInt64Range("ts", LuceneNetSearchLoad.PrecisionStep, LuceneNetSearchLoad.Long(range[0]), LuceneNetSearchLoad.Long(range[1]), true, true), null));
                }
                finally
                {
                    manager.Release(searcher);
                }
                Interlocked.Add(ref searches, 3);
            }
        }
        catch (Exception e) when (e is IOException or InvalidOperationException or ObjectDisposedException or IndexOutOfRangeException or ArgumentException)
        {
            failures.Enqueue(e);
        }
    }
}
