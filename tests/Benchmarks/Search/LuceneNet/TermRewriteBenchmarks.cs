using BenchmarkDotNet.Attributes;
using Folio.Indexing.Engines;
using Folio.Indexing.Engines.Lucene;
using Lucene.Net.Analysis.Core;
using Lucene.Net.Documents;
using Lucene.Net.Index;
using Lucene.Net.Search;
using Lucene.Net.Store;
using Lucene.Net.Util;
using LuceneQuery = Lucene.Net.Search.MultiTermQuery;

namespace Folio.Benchmarks.Search.LuceneNet;

/// <summary>
/// What Folio's guarded term rewrite (<see cref="CancellableTermsRewrite"/>, which checks the query's budget and memory
/// every 1,024 terms or documents) costs against Lucene.Net's own rewrites on ordinary multi-term queries: a field of
/// 500,000 distinct random words (one per document, merged to one segment, in memory), searched for a narrow and a
/// wide prefix, a leading wildcard, a term range and a regular expression, counting the hits.
/// <c>Default</c> is Lucene's <c>CONSTANT_SCORE_AUTO_REWRITE_DEFAULT</c> (what the queries had before Folio's rewrite),
/// <c>Filter</c> its <c>CONSTANT_SCORE_FILTER_REWRITE</c> (the same shape as Folio's, without the checks) and
/// <c>Guarded</c> Folio's, on a reader of the <see cref="WatchedDirectory"/> as Folio's searchers read, with a budget that does not run out and a 1 GiB memory limit as the server's default:
/// <c>dotnet tests/Benchmarks/bin/Release/net10.0/Folio.Benchmarks.dll --filter '*TermRewrite*' --inProcess --warmupCount 3 --iterationCount 12</c>.
/// </summary>
[MemoryDiagnoser]
public class TermRewriteBenchmarks
{
    private const int Documents = 500_000;
    private const string WordField = "Word";

    private RAMDirectory _directory = null!;
    private DirectoryReader _reader = null!;
    private IndexSearcher _searcher = null!;
    private DirectoryReader _watchedReader = null!;
    private IndexSearcher _watchedSearcher = null!;
    private CancellationTokenSource _budget = null!;
    private LuceneQuery _default = null!;
    private LuceneQuery _filter = null!;
    private LuceneQuery _guarded = null!;

    /// <summary>The query's shape.</summary>
    [Params("prefix-narrow", "prefix-wide", "wildcard", "range", "regex")]
    public string Kind { get; set; } = "";

    [GlobalSetup]
    public void Setup()
    {
        _directory = new RAMDirectory();
        var random = new Random(24);
        var letters = new char[12];
        using (var writer = new IndexWriter(_directory, new IndexWriterConfig(LuceneVersion.LUCENE_48, new KeywordAnalyzer()) { RAMBufferSizeMB = 64 }))
        {
            var seen = new HashSet<string>(StringComparer.Ordinal);
            while (seen.Count < Documents)
            {
                var length = random.Next(5, 12);
                for (var i = 0; i < length; i++)
                    letters[i] = (char)('a' + random.Next(26));
                var word = new string(letters, 0, length);
                if (seen.Add(word))
                    writer.AddDocument([new StringField(WordField, word, Field.Store.NO)]);
            }
            writer.ForceMerge(1);
        }
        _reader = DirectoryReader.Open(_directory);
        _searcher = new IndexSearcher(_reader);
        _watchedReader = DirectoryReader.Open(new WatchedDirectory(_directory));
        _watchedSearcher = new IndexSearcher(_watchedReader);
        _budget = new CancellationTokenSource();
        _default = Create();
        _filter = Create();
        _filter.MultiTermRewriteMethod = MultiTermQuery.CONSTANT_SCORE_FILTER_REWRITE;
        _guarded = CancellableTermsRewrite.Apply(Create(), new QueryGuard(_budget.Token, 1L << 30));
    }

    private MultiTermQuery Create() => Kind switch
    {
        "prefix-narrow" => new PrefixQuery(new Term(WordField, "abc")),
        "prefix-wide" => new PrefixQuery(new Term(WordField, "m")),
        "wildcard" => new WildcardQuery(new Term(WordField, "*ab*c")),
        "range" => TermRangeQuery.NewStringRange(WordField, "f", "h", true, false),
        "regex" => new RegexpQuery(new Term(WordField, "[a-c]x.*e")),
        _ => throw new InvalidOperationException(Kind),
    };

    [GlobalCleanup]
    public void Cleanup()
    {
        _reader.Dispose();
        _watchedReader.Dispose();
        _directory.Dispose();
        _budget.Dispose();
    }

    /// <summary>Lucene.Net's default rewrite.</summary>
    [Benchmark(Baseline = true)]
    public int Default() => Count(_searcher, _default);

    /// <summary>Lucene.Net's filter rewrite, unguarded.</summary>
    [Benchmark]
    public int Filter() => Count(_searcher, _filter);

    /// <summary>Folio's guarded rewrite, on a reader of the watched directory as Folio's searchers read.</summary>
    [Benchmark]
    public int Guarded() => Count(_watchedSearcher, _guarded);

    private static int Count(IndexSearcher searcher, LuceneQuery query)
    {
        var collector = new TotalHitCountCollector();
        searcher.Search(query, collector);
        return collector.TotalHits;
    }
}
