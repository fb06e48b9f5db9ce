// Java Lucene's side of Folio's search load test (tests/Benchmarks/Search). Run by the driver
// (`dotnet run -c Release --project tests/Benchmarks -- search-load`) as a single-file source program:
//   java -cp '/usr/share/java/lucene-core-8*.jar:/usr/share/java/lucene-analyzers-common-8*.jar' \
//     LuceneBench.java RECORDS_TSV QUERIES_TSV INDEX_DIR RESULTS_TSV [keys]
// It indexes the same records in the same batches (one durable commit() each), then times the same
// queries as Folio, and writes its measurements as tab-separated lines the driver parses.
// With "keys" it also indexes each record's key (StringField) and adds by updateDocument on it, as an
// index must to replace an entry by key the way Folio's does (`search-load --lucene-keys`).
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoublePoint;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopDocsCollector;
import org.apache.lucene.search.TopFieldCollector;
import org.apache.lucene.search.TopScoreDocCollector;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Version;
import org.tartarus.snowball.ext.EnglishStemmer;

public class LuceneBench {
    static final int BATCH_SIZE = 10_000;
    static final int TOP_K = 25;
    // Folio always counts every match, so Lucene is asked to as well (its default stops exact
    // counting at 1,000 hits and may skip non-competitive blocks); the "text-default" set shows that
    // default for reference.
    static final int EXACT_TOTALS = Integer.MAX_VALUE;
    static final int LUCENE_DEFAULT_TOTALS = 1000;

    record Rec(int id, String category, String brand, String text, long ts, double price) {}

    /** Folio's full-text chain: word tokenizer, lower-case, ASCII folding, English stop words, Snowball English. */
    static final class EnglishChain extends Analyzer {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            StandardTokenizer source = new StandardTokenizer();
            TokenStream stream = new LowerCaseFilter(source);
            stream = new ASCIIFoldingFilter(stream);
            stream = new StopFilter(stream, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
            stream = new SnowballFilter(stream, new EnglishStemmer());
            return new TokenStreamComponents(source, stream);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && !(args.length == 5 && args[4].equals("keys"))) {
            System.err.println("usage: LuceneBench RECORDS_TSV QUERIES_TSV INDEX_DIR RESULTS_TSV [keys]");
            System.exit(2);
        }
        boolean byKey = args.length == 5;
        List<Rec> records = readRecords(Paths.get(args[0]));
        Map<String, List<String[]>> queries = readQueries(Paths.get(args[1]));
        Path indexDir = Paths.get(args[2]);
        deleteRecursively(indexDir);

        Map<String, String> out = new LinkedHashMap<>();
        out.put("engine", byKey ? "Lucene (keys)" : "Lucene");
        out.put("version", Version.LATEST.toString());
        out.put("records", Integer.toString(records.size()));

        Analyzer analyzer = new EnglishChain();
        IndexWriterConfig config = new IndexWriterConfig(analyzer).setOpenMode(IndexWriterConfig.OpenMode.CREATE);
        long addNanos = 0, commitNanos = 0, sampleNanos = 0;
        // -Dfolio.sizesAfterCommits=true (search-load --sizes-after-commits): du of the index after each commit too.
        boolean sampleSizes = Boolean.getBoolean("folio.sizesAfterCommits");
        List<Long> sizesAfterCommits = new ArrayList<>();
        // The process's CPU time (all threads: merges, GC, JIT), as the .NET sides measure theirs.
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuStarted = os.getProcessCpuTime();
        long started = System.nanoTime();
        FSDirectory directory = FSDirectory.open(indexDir);
        IndexWriter writer = new IndexWriter(directory, config);
        for (int start = 0; start < records.size(); start += BATCH_SIZE) {
            int end = Math.min(records.size(), start + BATCH_SIZE);
            long t0 = System.nanoTime();
            for (int i = start; i < end; i++) {
                Rec r = records.get(i);
                Document doc = new Document();
                String key = Integer.toString(r.id());
                doc.add(byKey ? new StringField("id", key, Field.Store.YES) : new StoredField("id", key));
                doc.add(new StringField("category", r.category().toLowerCase(Locale.ROOT), Field.Store.NO));
                doc.add(new StringField("brand", r.brand().toLowerCase(Locale.ROOT), Field.Store.NO));
                doc.add(new TextField("text", r.text(), Field.Store.NO));
                doc.add(new LongPoint("ts", r.ts()));
                doc.add(new NumericDocValuesField("ts", r.ts()));
                doc.add(new DoublePoint("price", r.price()));
                if (byKey) {
                    writer.updateDocument(new Term("id", key), doc);
                } else {
                    writer.addDocument(doc);
                }
            }
            long t1 = System.nanoTime();
            writer.commit();
            long t2 = System.nanoTime();
            addNanos += t1 - t0;
            commitNanos += t2 - t1;
            if (sampleSizes) {
                // Not timed: du is a process of its own, and the rate is the batches'. Merges go on meanwhile, as they would.
                sizesAfterCommits.add(diskUsage(indexDir));
                sampleNanos += System.nanoTime() - t2;
            }
            if ((end / BATCH_SIZE) % 20 == 0) {
                System.err.printf(Locale.ROOT, "  lucene: %,d records, %,.0f/s%n", end, end / ((t2 - started) / 1e9));
            }
        }
        long indexed = System.nanoTime();
        out.put("index_seconds", seconds(indexed - started - sampleNanos));
        out.put("index_cpu_seconds", seconds(os.getProcessCpuTime() - cpuStarted));
        out.put("add_seconds", seconds(addNanos));
        out.put("commit_seconds", seconds(commitNanos));
        out.put("size_after_commit", Long.toString(sampleSizes ? sizesAfterCommits.get(sizesAfterCommits.size() - 1) : diskUsage(indexDir)));
        if (sampleSizes) {
            out.put("sizes_after_commits", sizesAfterCommits.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
        }
        out.put("size_after_commit_apparent", Long.toString(apparentSize(indexDir)));
        out.put("files_after_commit", fileList(indexDir));
        writer.close();
        out.put("close_seconds", seconds(System.nanoTime() - indexed));
        out.put("size_after_close", Long.toString(diskUsage(indexDir)));

        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            out.put("segments", Integer.toString(reader.leaves().size()));
            IndexSearcher searcher = new IndexSearcher(reader);
            Map<Integer, Rec> byId = new java.util.HashMap<>();
            for (Rec r : records) byId.put(r.id(), r);

            List<String> lines = new ArrayList<>();
            runSet(lines, "eq", queries.get("eq"), searcher,
                q -> new ConstantScoreQuery(new TermQuery(new Term("brand", q[0].toLowerCase(Locale.ROOT)))),
                () -> TopScoreDocCollector.create(TOP_K, EXACT_TOTALS));
            runSet(lines, "range", queries.get("range"), searcher,
                q -> LongPoint.newRangeQuery("ts", Long.parseLong(q[0]), Long.parseLong(q[1])),
                () -> TopScoreDocCollector.create(TOP_K, EXACT_TOTALS));
            runSet(lines, "text", queries.get("text"), searcher, q -> fullText(analyzer, q[0]),
                () -> TopScoreDocCollector.create(TOP_K, EXACT_TOTALS));
            runSet(lines, "text-default", queries.get("text"), searcher, q -> fullText(analyzer, q[0]),
                () -> TopScoreDocCollector.create(TOP_K, LUCENE_DEFAULT_TOTALS));
            Sort byTs = new Sort(new SortField("ts", SortField.Type.LONG));
            List<String[]> sortHits = runSet(lines, "sort", queries.get("sort"), searcher,
                q -> new ConstantScoreQuery(new TermQuery(new Term("brand", q[0].toLowerCase(Locale.ROOT)))),
                () -> TopFieldCollector.create(byTs, TOP_K, EXACT_TOTALS));
            StringBuilder sums = new StringBuilder();
            for (String[] keys : sortHits) {
                long hash = 0xCBF29CE484222325L;
                for (String key : keys) hash = (hash ^ byId.get(Integer.parseInt(key)).ts()) * 0x100000001B3L;
                if (sums.length() > 0) sums.append(',');
                sums.append(hash);
            }
            lines.add("sort_checksums\t" + sums);

            try (PrintWriter results = new PrintWriter(Files.newBufferedWriter(Paths.get(args[3]), StandardCharsets.UTF_8))) {
                for (Map.Entry<String, String> e : out.entrySet()) results.println(e.getKey() + "\t" + e.getValue());
                for (String line : lines) results.println(line);
            }
        }
    }

    interface CollectorFactory { TopDocsCollector<?> create(); }

    /**
     * One untimed pass warms the JIT and the page cache, then the same queries are timed one by one.
     * A query's time covers building it (analysis included), searching, and reading the keys of its
     * top hits from stored fields, since Folio's result carries the keys; "-search" latencies leave
     * the key reads out.
     */
    static List<String[]> runSet(List<String> lines, String kind, List<String[]> queries, IndexSearcher searcher,
                                 Function<String[], Query> build, CollectorFactory collector) throws IOException {
        for (String[] q : queries) {
            TopDocsCollector<?> c = collector.create();
            searcher.search(build.apply(q), c);
            keys(searcher, c.topDocs());
        }
        double[] latencies = new double[queries.size()];
        double[] searchOnly = new double[queries.size()];
        long[] totals = new long[queries.size()];
        List<String[]> hits = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            long t0 = System.nanoTime();
            TopDocsCollector<?> c = collector.create();
            searcher.search(build.apply(queries.get(i)), c);
            TopDocs top = c.topDocs();
            long t1 = System.nanoTime();
            String[] keys = keys(searcher, top);
            long t2 = System.nanoTime();
            latencies[i] = (t2 - t0) / 1e3;
            searchOnly[i] = (t1 - t0) / 1e3;
            totals[i] = top.totalHits.value;
            hits.add(keys);
        }
        lines.add("latencies\t" + kind + "\t" + join(latencies));
        lines.add("latencies\t" + kind + "-search\t" + join(searchOnly));
        StringBuilder t = new StringBuilder();
        for (long total : totals) t.append(t.length() > 0 ? "," : "").append(total);
        lines.add("totals\t" + kind + "\t" + t);
        return hits;
    }

    static String[] keys(IndexSearcher searcher, TopDocs top) throws IOException {
        String[] keys = new String[top.scoreDocs.length];
        for (int i = 0; i < keys.length; i++) {
            ScoreDoc hit = top.scoreDocs[i];
            keys[i] = searcher.doc(hit.doc).get("id");
        }
        return keys;
    }

    static Query fullText(Analyzer analyzer, String text) {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        List<String> seen = new ArrayList<>();
        try (TokenStream stream = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                String t = term.toString();
                if (!seen.contains(t)) {
                    seen.add(t);
                    query.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
                }
            }
            stream.end();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return query.build();
    }

    static List<Rec> readRecords(Path path) throws IOException {
        List<Rec> records = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                String[] f = line.split("\t", -1);
                records.add(new Rec(Integer.parseInt(f[0]), f[1], f[2], f[3], Long.parseLong(f[4]), Double.parseDouble(f[5])));
            }
        }
        return records;
    }

    static Map<String, List<String[]>> readQueries(Path path) throws IOException {
        Map<String, List<String[]>> sets = new LinkedHashMap<>();
        for (String line : Files.readAllLines(path, StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            sets.computeIfAbsent(f[0], k -> new ArrayList<>()).add(java.util.Arrays.copyOfRange(f, 1, f.length));
        }
        return sets;
    }

    /** Allocated bytes as du reports them, the same tool the Folio side uses. */
    static long diskUsage(Path directory) throws IOException, InterruptedException {
        Process du = new ProcessBuilder("du", "-s", "-B1", directory.toString()).start();
        String output = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        du.waitFor();
        return Long.parseLong(output.split("\t")[0].trim());
    }

    /** The files' lengths summed (what ls shows), beside du's allocated blocks. */
    static long apparentSize(Path directory) throws IOException {
        long total = 0;
        try (Stream<Path> files = Files.list(directory)) {
            for (Path p : files.toList()) total += Files.size(p);
        }
        return total;
    }

    /** How many files, and the segments they belong to (a merge not yet committed leaves its inputs on disk). */
    static String fileList(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            List<Path> all = files.toList();
            long segments = all.stream().map(p -> p.getFileName().toString()).filter(n -> n.startsWith("_"))
                .map(n -> n.substring(0, n.indexOf('.') < 0 ? n.length() : n.indexOf('.')).split("_")[1]).distinct().count();
            return all.size() + " files of " + segments + " segments";
        }
    }

    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) return;
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e9);
    }

    static String join(double[] values) {
        StringBuilder s = new StringBuilder();
        for (double v : values) s.append(s.length() > 0 ? "," : "").append(String.format(Locale.ROOT, "%.1f", v));
        return s.toString();
    }
}
