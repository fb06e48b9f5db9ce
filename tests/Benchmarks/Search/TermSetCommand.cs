using System.Diagnostics;
using System.Globalization;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Queries;
using Lucene.Net.Search;
using Lucene.Net.Store;
using Lucene.Net.Util;
using FolioQuery = Folio.Indexing.Queries.Query;
using LuceneQuery = Lucene.Net.Search.Query;
using LuceneTermQuery = Lucene.Net.Search.TermQuery;

namespace Folio.Benchmarks.Search;

/// <summary>
/// <c>term-set</c>: <c>Name in (…)</c> with 100,000 values on an index of 1,000,000 entries (issue 24), Folio's engine
/// before (the union of one term query per value the compiler made, stopped at a time limit) and after (the term-set
/// query), beside Lucene.Net's TermsFilter and a BooleanQuery of a clause per value, in one run:
/// <c>dotnet run -c Release --project tests/Benchmarks -- term-set [--entries 1000000] [--values 100000] [--runs 5] [--before-limit-s 120] [--dir /tmp/term-set]</c>.
/// One value in ten of the list names an entry, so the answer has values/10 matches; every engine must count the same.
/// </summary>
internal static class TermSetCommand
{
    public const string Command = "term-set";

    private const int BatchSize = 50_000;
    private const int TopK = 25;
    private const string NameField = "Name";

    public static int Run(string[] args)
    {
        var entries = Option(args, "--entries", 1_000_000);
        var valueCount = Option(args, "--values", 100_000);
        var runs = Option(args, "--runs", 5);
        var beforeLimit = TimeSpan.FromSeconds(Option(args, "--before-limit-s", 120));
        var root = OptionText(args, "--dir") ?? Path.Combine(Path.GetTempPath(), "folio-term-set");
        // Values step through the names so that one in ten exists: the rest are lookups that find nothing.
        var step = Math.Max(1, entries / valueCount);
        var values = new List<string>(valueCount);
        for (var i = 0; i < valueCount; i++)
            values.Add(NameOf(i % 10 == 0 ? (long)i * step % entries : entries + i));
        var expected = values.Count(v => long.Parse(v.AsSpan(7), CultureInfo.InvariantCulture) < entries);
        Console.WriteLine($"term-set: {entries:N0} entries, {valueCount:N0} values ({expected:N0} of them present), {runs} runs; load: {File.ReadAllText("/proc/loadavg").Trim()}");

        var folio = Path.Combine(root, "folio");
        var lucene = Path.Combine(root, "lucenenet");
        BuildFolio(folio, entries);
        BuildLucene(lucene, entries);

        var results = new List<(string Name, double Ms, long Count)>();
        using (var index = SearchIndex.Open(StorageOptions.ForPath(folio), Schema()))
        {
            var set = new TermsInQuery(NameField, values.Select(FieldValue.From).ToList());
            results.Add(Time("Folio term set (after)", runs, () =>
            {
                using var searcher = index.OpenSearcher();
                return searcher.Search(set, 0, TopK).TotalHits;
            }));
            var union = new OrQuery(values.Select(v => (FolioQuery)new Folio.Indexing.Queries.TermQuery(NameField, FieldValue.From(v))).ToList());
            results.Add(Before(index, union, beforeLimit));
        }
        using (var directory = new MMapDirectory(lucene))
        using (var reader = DirectoryReader.Open(directory))
        {
            var searcher = new Lucene.Net.Search.IndexSearcher(reader);
            var terms = values.Select(v => new Term(NameField, v)).ToList();
            results.Add(Time("Lucene.Net TermsFilter", runs, () => searcher.Search(new ConstantScoreQuery(new TermsFilter(terms)), TopK).TotalHits));
            BooleanQuery.MaxClauseCount = int.MaxValue;
            results.Add(Time("Lucene.Net BooleanQuery", runs, () =>
            {
                var any = new BooleanQuery();
                foreach (var term in terms)
                    any.Add(new LuceneTermQuery(term), Occur.SHOULD);
                return searcher.Search(new ConstantScoreQuery(any), TopK).TotalHits;
            }));
        }

        var ours = results[0].Ms;
        Console.WriteLine($"{"query",-28} {"median ms",12} {"matches",10} {"÷ Folio term set",18}");
        foreach (var (name, ms, count) in results)
            Console.WriteLine($"{name,-28} {(double.IsPositiveInfinity(ms) ? $"> {beforeLimit.TotalMilliseconds:N0}" : ms.ToString("N1", CultureInfo.InvariantCulture)),12} {count,10:N0} {ms / ours,18:N2}");
        Console.WriteLine($"load after: {File.ReadAllText("/proc/loadavg").Trim()}");
        var wrong = results.Where(r => r.Count >= 0 && r.Count != expected).ToList();
        foreach (var (name, _, count) in wrong)
            Console.WriteLine($"MISMATCH: {name} counted {count:N0}, expected {expected:N0}");
        return wrong.Count == 0 ? 0 : 1;
    }

    private static string NameOf(long i) => "person-" + i.ToString("D9", CultureInfo.InvariantCulture);

    private static IndexSchema Schema() => new IndexSchema().Add(NameField, FieldKind.Exact);

    private static void BuildFolio(string directory, int entries)
    {
        SearchIndex.Drop(directory);
        var watch = Stopwatch.StartNew();
        using var index = SearchIndex.Open(StorageOptions.ForPath(directory), Schema());
        for (var start = 0; start < entries; start += BatchSize)
        {
            using var batch = index.BeginBatch();
            for (var i = start; i < Math.Min(entries, start + BatchSize); i++)
                batch.Add(new IndexEntry("people/" + i.ToString(CultureInfo.InvariantCulture)).Add(NameField, NameOf(i)));
            batch.Commit();
        }
        Console.WriteLine($"  folio index built in {watch.Elapsed.TotalSeconds:N1} s");
    }

    private static void BuildLucene(string path, int entries)
    {
        if (System.IO.Directory.Exists(path))
            System.IO.Directory.Delete(path, recursive: true);
        var watch = Stopwatch.StartNew();
        using var directory = new MMapDirectory(path);
        using var analyzer = new KeywordAnalyzer();
        using (var writer = new IndexWriter(directory, new IndexWriterConfig(LuceneVersion.LUCENE_48, analyzer) { OpenMode = OpenMode.CREATE }))
        {
            for (var i = 0; i < entries; i++)
                writer.AddDocument([new StringField(NameField, NameOf(i), Field.Store.NO)]);
            writer.Commit();
        }
        Console.WriteLine($"  lucene.net index built in {watch.Elapsed.TotalSeconds:N1} s");
    }

    /// <summary>The median of <paramref name="runs"/> timed runs after one warm-up, and the count of the last.</summary>
    private static (string, double, long) Time(string name, int runs, Func<long> query)
    {
        long count = query();
        var times = new double[runs];
        for (var r = 0; r < runs; r++)
        {
            var watch = Stopwatch.StartNew();
            count = query();
            times[r] = watch.Elapsed.TotalMilliseconds;
        }
        Array.Sort(times);
        Console.WriteLine($"  {name}: {string.Join(", ", times.Select(t => t.ToString("N1", CultureInfo.InvariantCulture)))} ms");
        return (name, times[runs / 2], count);
    }

    /// <summary>The union of one term query per value, once, stopped by the searcher's cancellation past <paramref name="limit"/>.</summary>
    private static (string, double, long) Before(SearchIndex index, FolioQuery union, TimeSpan limit)
    {
        using var searcher = index.OpenSearcher();
        using var stop = new CancellationTokenSource(limit);
        searcher.Guard = new Folio.Indexing.Engines.QueryGuard(stop.Token);
        var watch = Stopwatch.StartNew();
        try
        {
            var count = searcher.Search(union, 0, TopK).TotalHits;
            Console.WriteLine($"  Folio union of term queries (before): {watch.Elapsed.TotalMilliseconds:N1} ms");
            return ("Folio union (before)", watch.Elapsed.TotalMilliseconds, count);
        }
        catch (OperationCanceledException)
        {
            Console.WriteLine($"  Folio union of term queries (before): stopped at {watch.Elapsed.TotalSeconds:N1} s");
            return ("Folio union (before)", double.PositiveInfinity, -1);
        }
    }

    private static int Option(string[] args, string name, int fallback) =>
        OptionText(args, name) is { } text ? int.Parse(text, CultureInfo.InvariantCulture) : fallback;

    private static string? OptionText(string[] args, string name)
    {
        var at = Array.IndexOf(args, name);
        return at >= 0 && at + 1 < args.Length ? args[at + 1] : null;
    }
}
