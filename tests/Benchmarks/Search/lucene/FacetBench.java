// Java Lucene's side of Folio's facet load test (tests/Benchmarks/Facets). The driver
// (`dotnet run -c Release --project tests/Benchmarks -- facet-load`) compiles it with LuceneBench.java, whose
// analyzer and readers it shares, and runs:
//   java -cp CLASSES:lucene-core:lucene-analyzers-common:lucene-facet FacetBench RECORDS_TSV SPEC_TSV INDEX_DIR RESULTS_TSV COUNTS_TSV
// It indexes the records with the facet module's fields (SortedSetDocValuesFacetField for Category, Brand and Month,
// a DoubleDocValuesField for Price), then times the same facet requests as Folio over the same matched sets:
// a FacetsCollector over the query, SortedSetDocValuesFacetCounts for the three term facets (one pass) and
// DoubleRangeFacetCounts for the price ranges, every value of each facet read back as Folio's answer carries them.
// Each request's wall time and its thread's CPU time are written (the machine's cores may be shared).
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.facet.FacetResult;
import org.apache.lucene.facet.FacetsCollector;
import org.apache.lucene.facet.FacetsConfig;
import org.apache.lucene.facet.LabelAndValue;
import org.apache.lucene.facet.range.DoubleRange;
import org.apache.lucene.facet.range.DoubleRangeFacetCounts;
import org.apache.lucene.facet.sortedset.DefaultSortedSetDocValuesReaderState;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetCounts;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesFacetField;
import org.apache.lucene.facet.sortedset.SortedSetDocValuesReaderState;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;

public class FacetBench {
    static final String[] TERM_DIMS = {"Category", "Brand", "Month"};
    static final String RANGE_DIM = "Price";
    static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("yyyy-MM", Locale.ROOT).withZone(ZoneOffset.UTC);

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: FacetBench RECORDS_TSV SPEC_TSV INDEX_DIR RESULTS_TSV COUNTS_TSV");
            System.exit(2);
        }
        List<LuceneBench.Rec> records = LuceneBench.readRecords(Paths.get(args[0]));
        String termCategory = null;
        List<String> textQueries = new ArrayList<>();
        List<DoubleRange> rangeList = new ArrayList<>();
        int repeats = 0;
        for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "term" -> termCategory = f[1];
                case "text" -> textQueries.add(f[1]);
                case "repeats" -> repeats = Integer.parseInt(f[1]);
                case "range" -> rangeList.add(new DoubleRange(f[1],
                    f[2].isEmpty() ? Double.NEGATIVE_INFINITY : Double.parseDouble(f[2]), f[2].isEmpty() || Boolean.parseBoolean(f[3]),
                    f[4].isEmpty() ? Double.POSITIVE_INFINITY : Double.parseDouble(f[4]), f[4].isEmpty() || Boolean.parseBoolean(f[5])));
                default -> throw new IllegalArgumentException("Unknown spec line: " + line);
            }
        }
        DoubleRange[] ranges = rangeList.toArray(new DoubleRange[0]);
        Path indexDir = Paths.get(args[2]);
        LuceneBench.deleteRecursively(indexDir);

        Analyzer analyzer = new LuceneBench.EnglishChain();
        FacetsConfig config = new FacetsConfig();
        long started = System.nanoTime();
        FSDirectory directory = FSDirectory.open(indexDir);
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE))) {
            for (LuceneBench.Rec r : records) {
                Document doc = new Document();
                doc.add(new StringField("category", r.category().toLowerCase(Locale.ROOT), Field.Store.NO));
                doc.add(new TextField("text", r.text(), Field.Store.NO));
                doc.add(new SortedSetDocValuesFacetField("Category", r.category()));
                doc.add(new SortedSetDocValuesFacetField("Brand", r.brand()));
                doc.add(new SortedSetDocValuesFacetField("Month", MONTH.format(Instant.ofEpochSecond(r.ts()))));
                doc.add(new DoubleDocValuesField(RANGE_DIM, r.price()));
                writer.addDocument(config.build(doc));
            }
            writer.commit();
        }
        System.err.printf(Locale.ROOT, "  lucene: %,d records indexed in %.1f s%n", records.size(), (System.nanoTime() - started) / 1e9);

        try (DirectoryReader reader = DirectoryReader.open(directory);
             PrintWriter results = new PrintWriter(Files.newBufferedWriter(Paths.get(args[3]), StandardCharsets.UTF_8));
             PrintWriter counts = new PrintWriter(Files.newBufferedWriter(Paths.get(args[4]), StandardCharsets.UTF_8))) {
            IndexSearcher searcher = new IndexSearcher(reader);
            // Built once per reader (as an application keeps it beside its searcher): the facet ordinals of every segment.
            SortedSetDocValuesReaderState state = new DefaultSortedSetDocValuesReaderState(reader);
            results.println("engine\tLucene");
            results.println("version\t" + Version.LATEST);
            results.println("records\t" + records.size());
            results.println("segments\t" + reader.leaves().size());

            List<Query> term = new ArrayList<>();
            List<Query> text = new ArrayList<>();
            List<Query> all = new ArrayList<>();
            for (int i = 0; i < repeats; i++) {
                term.add(new TermQuery(new Term("category", termCategory.toLowerCase(Locale.ROOT))));
                all.add(new MatchAllDocsQuery());
            }
            for (String q : textQueries) text.add(LuceneBench.fullText(analyzer, q));
            runSet(results, counts, "term", term, false, searcher, state, ranges);
            runSet(results, counts, "text", text, true, searcher, state, ranges);
            runSet(results, counts, "all", all, false, searcher, state, ranges);
        }
    }

    /**
     * One untimed pass warms the JIT and the page cache, then the same requests are timed one by one. A request's time
     * covers its query's matches (collected by a FacetsCollector), the counts of the three term facets and of the
     * ranges, and every value of each read back, most frequent first, with its label.
     */
    static void runSet(PrintWriter results, PrintWriter counts, String set, List<Query> queries, boolean distinct,
                       IndexSearcher searcher, SortedSetDocValuesReaderState state, DoubleRange[] ranges) throws IOException {
        for (Query q : queries) facets(q, searcher, state, ranges);
        double[] latencies = new double[queries.size()];
        double[] cpu = new double[queries.size()];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < queries.size(); i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            Answer answer = facets(queries.get(i), searcher, state, ranges);
            latencies[i] = (System.nanoTime() - t0) / 1e3;
            cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e3;
            if (i > 0 && !distinct) continue;
            int query = distinct ? i : 0;
            for (FacetResult facet : answer.facets()) {
                if (facet == null) continue;
                for (LabelAndValue value : facet.labelValues) {
                    counts.println(set + "\t" + query + "\t" + facet.dim + "\t" + value.label + "\t" + value.value);
                }
            }
            counts.println(set + "\t" + query + "\t#total\t\t" + answer.total());
        }
        results.println("latencies\t" + set + "\t" + LuceneBench.join(latencies));
        results.println("latencies\t" + set + "-cpu\t" + LuceneBench.join(cpu));
        System.err.printf(Locale.ROOT, "  lucene: %s p50 %,.0f µs (CPU %,.0f µs) over %d runs%n", set, percentile(latencies, 50), percentile(cpu, 50), latencies.length);
    }

    /** A request's answer: its query's total hits (the matched set's size) and its facets. */
    record Answer(long total, List<FacetResult> facets) {}

    static Answer facets(Query query, IndexSearcher searcher, SortedSetDocValuesReaderState state, DoubleRange[] ranges) throws IOException {
        FacetsCollector hits = new FacetsCollector();
        searcher.search(query, hits);
        long matched = 0;
        for (FacetsCollector.MatchingDocs docs : hits.getMatchingDocs()) matched += docs.totalHits;
        SortedSetDocValuesFacetCounts terms = new SortedSetDocValuesFacetCounts(state, hits);
        List<FacetResult> answer = new ArrayList<>(TERM_DIMS.length + 1);
        for (String dim : TERM_DIMS) {
            SortedSetDocValuesReaderState.OrdRange ords = state.getOrdRange(dim);
            answer.add(terms.getTopChildren(ords.end - ords.start + 1, dim));
        }
        answer.add(new DoubleRangeFacetCounts(RANGE_DIM, hits, ranges).getTopChildren(ranges.length, RANGE_DIM));
        return new Answer(matched, answer);
    }

    static double percentile(double[] values, double p) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
