using System.Diagnostics;
using System.Globalization;
using System.Reflection;
using Lucene.Net.Analysis;
using Lucene.Net.Analysis.TokenAttributes;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Search.Similarities;
using Lucene.Net.Store;
using LuceneDirectory = Lucene.Net.Store.Directory;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>
/// Lucene.Net 4.8 in a .NET process, the third column of the search load test: LuceneBench.java's work done through
/// Lucene.Net's API. The same records in the same batches of 10,000, each ending with a durable commit; the same
/// analysis (<see cref="EnglishChainAnalyzer"/>), BM25 scoring (Java Lucene 8's default); the same four query sets
/// with exact hit counts (Lucene.Net 4.8 always counts every hit) and each query's time covering building it,
/// searching, and reading its top hits' keys from stored fields. Lucene.Net 4.8 has no points, so the timestamp and
/// the price are trie-encoded numeric fields, with the precision step Folio's Lucene engine uses.
/// </summary>
internal static class LuceneNetSearchLoad
{
    /// <summary>Trie terms per number: LuceneDocumentBuilder.NumericPrecisionStep in src/Indexing's Lucene engine.</summary>
    public const int PrecisionStep = 16;

    private static readonly FieldType LongType = NumberType(NumericType.INT64);
    private static readonly FieldType DoubleType = NumberType(NumericType.DOUBLE);
    internal static readonly Sort ByTimestamp = new(new SortField("ts", SortFieldType.INT64));

    public static EngineResult Run(BenchRecord[] records, Dictionary<string, List<string[]>> queries, string path, LuceneNetDirectoryKind kind, TextWriter log)
    {
        if (System.IO.Directory.Exists(path))
            System.IO.Directory.Delete(path, recursive: true);
        System.IO.Directory.CreateDirectory(path);
        var name = kind == LuceneNetDirectoryKind.MMap ? "Lucene.Net (MMap)" : "Lucene.Net (NIOFS)";
        var result = new EngineResult { Engine = name, Version = Version(), Records = records.Length };
        result.Extra["directory"] = kind == LuceneNetDirectoryKind.MMap ? nameof(MMapDirectory) : nameof(NIOFSDirectory);

        using var analyzer = new EnglishChainAnalyzer();
        using LuceneDirectory directory = kind == LuceneNetDirectoryKind.MMap ? new MMapDirectory(path) : new NIOFSDirectory(path);
        var config = new IndexWriterConfig(EnglishChainAnalyzer.Version, analyzer)
        {
            OpenMode = OpenMode.CREATE,
            Similarity = new BM25Similarity(),
        };
        var addTime = new Stopwatch();
        var commitTime = new Stopwatch();
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var total = Stopwatch.StartNew();
        var writer = new IndexWriter(directory, config);
        for (var start = 0; start < records.Length; start += FolioSearchLoad.BatchSize)
        {
            var end = Math.Min(records.Length, start + FolioSearchLoad.BatchSize);
            addTime.Start();
            for (var i = start; i < end; i++)
                writer.AddDocument(DocumentOf(records[i]));
            addTime.Stop();
            commitTime.Start();
            writer.Commit();
            commitTime.Stop();
            if ((end / FolioSearchLoad.BatchSize) % 20 == 0)
                log.WriteLine($"  {name}: {end:N0} records, {end / total.Elapsed.TotalSeconds:N0}/s");
        }
        result.IndexSeconds = total.Elapsed.TotalSeconds;
        result.IndexCpuSeconds = (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalSeconds;
        result.AddSeconds = addTime.Elapsed.TotalSeconds;
        result.CommitSeconds = commitTime.Elapsed.TotalSeconds;
        result.SizeAfterCommitBytes = DiskUsage.Bytes(path);
        var close = Stopwatch.StartNew();
        writer.Dispose();
        result.CloseSeconds = close.Elapsed.TotalSeconds;
        result.SizeAfterCloseBytes = DiskUsage.Bytes(path);

        using var reader = DirectoryReader.Open(directory);
        result.Extra["segments"] = reader.Leaves.Count.ToString(CultureInfo.InvariantCulture);
        var searcher = new IndexSearcher(reader) { Similarity = new BM25Similarity() };
        RunSet(result, searcher, "eq", queries["eq"], q => new ConstantScoreQuery(BrandTerm(q[0])), null);
        RunSet(result, searcher, "range", queries["range"], q => NumericRangeQuery.NewInt64Range("ts", PrecisionStep, Long(q[0]), Long(q[1]), true, true), null);
        RunSet(result, searcher, "text", queries["text"], q => FullText(analyzer, q[0]), null);
        var sorted = RunSet(result, searcher, "sort", queries["sort"], q => new ConstantScoreQuery(BrandTerm(q[0])), ByTimestamp);
        var sums = new long[sorted.Length];
        for (var i = 0; i < sorted.Length; i++)
            sums[i] = EngineResult.Checksum(sorted[i].Select(key => records[int.Parse(key, CultureInfo.InvariantCulture)].Timestamp));
        result.SortChecksums = sums;
        return result;
    }

    internal static Document DocumentOf(BenchRecord r) =>
    [
        new StoredField("id", r.Id.ToString(CultureInfo.InvariantCulture)),
        new StringField("category", r.Category.ToLowerInvariant(), Field.Store.NO),
        new StringField("brand", r.Brand.ToLowerInvariant(), Field.Store.NO),
        new TextField("text", r.Text, Field.Store.NO),
        new Int64Field("ts", r.Timestamp, LongType),
        new NumericDocValuesField("ts", r.Timestamp),
        new DoubleField("price", r.Price, DoubleType),
    ];

    internal static TermQuery BrandTerm(string brand) => new(new Term("brand", brand.ToLowerInvariant()));

    // One untimed pass warms the JIT and the page cache, then the same queries are timed one by one, as in LuceneBench.java.
    private static string[][] RunSet(EngineResult result, IndexSearcher searcher, string kind, List<string[]> queries, Func<string[], Query> build, Sort? sort)
    {
        foreach (var query in queries)
            Keys(searcher, Search(searcher, build(query), sort));
        var latencies = new double[queries.Count];
        var searchOnly = new double[queries.Count];
        var totals = new long[queries.Count];
        var hits = new string[queries.Count][];
        for (var i = 0; i < queries.Count; i++)
        {
            var started = Stopwatch.GetTimestamp();
            var top = Search(searcher, build(queries[i]), sort);
            var searched = Stopwatch.GetTimestamp();
            hits[i] = Keys(searcher, top);
            var ended = Stopwatch.GetTimestamp();
            latencies[i] = Stopwatch.GetElapsedTime(started, ended).TotalMicroseconds;
            searchOnly[i] = Stopwatch.GetElapsedTime(started, searched).TotalMicroseconds;
            totals[i] = top.TotalHits;
        }
        result.Latencies[kind] = latencies;
        result.Latencies[kind + "-search"] = searchOnly;
        result.Totals[kind] = totals;
        return hits;
    }

    internal static TopDocs Search(IndexSearcher searcher, Query query, Sort? sort) =>
        sort is null ? searcher.Search(query, FolioSearchLoad.TopK) : searcher.Search(query, null, FolioSearchLoad.TopK, sort);

    internal static string[] Keys(IndexSearcher searcher, TopDocs top)
    {
        var keys = new string[top.ScoreDocs.Length];
        for (var i = 0; i < keys.Length; i++)
            keys[i] = searcher.Doc(top.ScoreDocs[i].Doc).Get("id");
        return keys;
    }

    /// <summary>The analysed words of <paramref name="text"/> as SHOULD clauses, each once, as LuceneBench.java builds them.</summary>
    internal static BooleanQuery FullText(Analyzer analyzer, string text)
    {
        var query = new BooleanQuery();
        var seen = new List<string>();
        using var stream = analyzer.GetTokenStream("text", text);
        var term = stream.AddAttribute<ICharTermAttribute>();
        stream.Reset();
        while (stream.IncrementToken())
        {
            var word = term.ToString();
            if (seen.Contains(word))
                continue;
            seen.Add(word);
            query.Add(new TermQuery(new Term("text", word)), Occur.SHOULD);
        }
        stream.End();
        return query;
    }

    private static FieldType NumberType(NumericType type)
    {
        var fieldType = new FieldType
        {
            IsIndexed = true,
            IsTokenized = true,
            OmitNorms = true,
            IndexOptions = IndexOptions.DOCS_ONLY,
            NumericType = type,
            NumericPrecisionStep = PrecisionStep,
        };
        fieldType.Freeze();
        return fieldType;
    }

    /// <summary>The package version (4.8.0-beta00017), which the assembly version (4.8.0.0) leaves out.</summary>
    private static string Version()
    {
        var assembly = typeof(IndexWriter).Assembly;
        var informational = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        return informational?.Split('+', ' ')[0] ?? assembly.GetName().Version?.ToString() ?? "";
    }

    internal static long Long(string text) => long.Parse(text, CultureInfo.InvariantCulture);
}
