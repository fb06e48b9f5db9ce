using System.Diagnostics;
using System.Globalization;
using Folio.Indexing.Collectors;
using Folio.Indexing.Queries;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Benchmarks.Search;

/// <summary>Folio's side of the search load test: index the records in durable batches, then time the query sets.</summary>
internal static class FolioSearchLoad
{
    public const int BatchSize = 10_000;
    public const int TopK = 25;

    private static readonly IReadOnlyList<SortField> ByScore = [SortField.Score];
    private static readonly IReadOnlyList<SortField> ByTimestamp = [new SortField("ts")];

    public static IndexSchema Schema() => new IndexSchema()
        .Add("category", FieldKind.Exact)
        .Add("brand", FieldKind.Exact)
        .Add("text", FieldKind.FullText)
        .Add("ts", FieldKind.Long)
        .Add("price", FieldKind.Double);

    /// <summary>The entry of <paramref name="values"/> under the key of record <paramref name="id"/>.</summary>
    public static IndexEntry Entry(int id, BenchRecord values) => new IndexEntry(id.ToString(CultureInfo.InvariantCulture))
        .Add("category", values.Category)
        .Add("brand", values.Brand)
        .Add("text", values.Text)
        .Add("ts", values.Timestamp)
        .Add("price", values.Price);

    public static EngineResult Run(BenchRecord[] records, Dictionary<string, List<string[]>> queries, string directory, bool sizesAfterCommits, TextWriter log)
    {
        SearchIndex.Drop(directory);
        var result = new EngineResult { Engine = "Folio", Version = typeof(SearchIndex).Assembly.GetName().Version?.ToString() ?? "", Records = records.Length };
        var schema = Schema();

        var addTime = new Stopwatch();
        var commitTime = new Stopwatch();
        var cpu = Process.GetCurrentProcess().TotalProcessorTime;
        var total = Stopwatch.StartNew();
        var index = SearchIndex.Open(StorageOptions.ForPath(directory), schema);
        var sizes = new List<long>(records.Length / BatchSize + 1);
        for (var start = 0; start < records.Length; start += BatchSize)
        {
            using var batch = index.BeginBatch();
            addTime.Start();
            var end = Math.Min(records.Length, start + BatchSize);
            for (var i = start; i < end; i++)
            {
                batch.Add(Entry(records[i].Id, records[i]));
            }
            addTime.Stop();
            commitTime.Start();
            batch.Commit();
            commitTime.Stop();
            if (sizesAfterCommits)
            {
                // Not timed: du is a process of its own, and the index's rate is the batches'.
                total.Stop();
                sizes.Add(DiskUsage.Bytes(directory));
                total.Start();
            }
            if ((end / BatchSize) % 20 == 0)
                log.WriteLine($"  folio: {end:N0} records, {end / total.Elapsed.TotalSeconds:N0}/s");
        }
        result.IndexSeconds = total.Elapsed.TotalSeconds;
        result.IndexCpuSeconds = (Process.GetCurrentProcess().TotalProcessorTime - cpu).TotalSeconds;
        result.AddSeconds = addTime.Elapsed.TotalSeconds;
        result.CommitSeconds = commitTime.Elapsed.TotalSeconds;
        result.SizeAfterCommitBytes = sizesAfterCommits ? sizes[^1] : DiskUsage.Bytes(directory);
        var settling = Stopwatch.StartNew();
        result.SizesAfterCommits = [.. sizes];
        var (live, _, liveApparent) = FolioLiveSize.Sample(index, directory);
        result.Extra["size_after_commit_apparent"] = liveApparent.ToString(CultureInfo.InvariantCulture);
        result.Extra["live"] = live;
        log.WriteLine("  folio after the last commit: " + live);
        // How long journal files stay on disk beside the data file once the last commit's size was taken: the flusher
        // applies the last records, syncs the data file and deletes a large record's file, or the journal and its spares
        // go once idle (StorageOptions.JournalReleaseAfterIdle). Counted from that sample, so it includes the breakdown's.
        var cap = TimeSpan.FromSeconds(30);
        while (Directory.GetFiles(directory, "*.journal").Length > 0 && settling.Elapsed < cap)
            Thread.Sleep(5);
        result.Extra["journal_gone"] = settling.Elapsed < cap
            ? FormattableString.Invariant($"{settling.Elapsed.TotalMilliseconds:N0} ms after the size after the last commit was taken, then {DiskUsage.Bytes(directory) / 1e6:N1} MB on disk")
            : FormattableString.Invariant($"still there {cap.TotalSeconds:N0} s after the size after the last commit was taken ({DiskUsage.Bytes(directory) / 1e6:N1} MB on disk)");
        var close = Stopwatch.StartNew();
        index.Dispose();
        result.CloseSeconds = close.Elapsed.TotalSeconds;
        result.SizeAfterCloseBytes = DiskUsage.Bytes(directory);

        using var reopened = SearchIndex.Open(StorageOptions.ForPath(directory), schema);
        using var searcher = reopened.OpenSearcher();
        result.Extra["trees"] = TreeBreakdown(searcher, schema, result.SizeAfterCloseBytes);
        log.WriteLine("  folio trees: " + result.Extra["trees"]);
        RunSet(result, "eq", queries["eq"], q => searcher.Search(new TermQuery("brand", FieldValue.From(q[0])), 0, TopK));
        RunSet(result, "range", queries["range"], q => searcher.Search(
            new RangeQuery("ts", FieldValue.From(Long(q[0])), true, FieldValue.From(Long(q[1])), true), 0, TopK));
        RunSet(result, "text", queries["text"], q => searcher.Search(new FullTextQuery("text", q[0]), 0, TopK, ByScore));
        var sorted = RunSet(result, "sort", queries["sort"], q => searcher.Search(new TermQuery("brand", FieldValue.From(q[0])), 0, TopK, ByTimestamp));
        result.SortChecksums = sorted.Select(hits => EngineResult.Checksum(hits.Hits.Select(h => records[int.Parse(h.Key, CultureInfo.InvariantCulture)].Timestamp))).ToArray();
        return result;
    }

    // One untimed pass warms the JIT and the page cache, then the same queries are timed one by one.
    private static TopDocs[] RunSet(EngineResult result, string kind, List<string[]> queries, Func<string[], TopDocs> run)
    {
        foreach (var query in queries)
            run(query);
        var latencies = new double[queries.Count];
        var answers = new TopDocs[queries.Count];
        for (var i = 0; i < queries.Count; i++)
        {
            var started = Stopwatch.GetTimestamp();
            answers[i] = run(queries[i]);
            latencies[i] = Stopwatch.GetElapsedTime(started).TotalMicroseconds;
        }
        result.Latencies[kind] = latencies;
        result.Totals[kind] = answers.Select(a => a.TotalHits).ToArray();
        return answers;
    }

    /// <summary>
    /// Where the bytes are: each tree's pages (branch, leaf and overflow), entries, and the share of its pages its
    /// keys and values fill (the rest is page and entry headers and free space: leaves split in halves by writes
    /// all over a tree stay about two-thirds full). Free pages and the file header make up the rest.
    /// </summary>
    private static string TreeBreakdown(IndexSearcher searcher, IndexSchema schema, long fileBytes)
    {
        var names = new List<string> { SearchIndex.EntriesTree, SearchIndex.KeysTree, SearchIndex.MetaTree, SearchIndex.ShapesTree };
        foreach (var field in schema.Fields.Keys)
        {
            names.Add(SearchIndex.TermsTree(field));
            names.Add(SearchIndex.SealedTree(field));
            names.Add(SearchIndex.PositionsTree(field));
            names.Add(SearchIndex.SealedPositionsTree(field));
            names.Add(SearchIndex.PointsTree(field));
            names.Add(SearchIndex.PointRunsTree(field));
            names.Add(SearchIndex.MarksTree(field));
            names.Add(SearchIndex.ValuesTree(field));
            names.Add(SearchIndex.ColumnTree(field));
            names.Add(SearchIndex.TermIdsTree(field));
            names.Add(SearchIndex.IdTermsTree(field));
            names.Add(SearchIndex.IdColumnTree(field));
            names.Add(SearchIndex.NormsTree(field));
        }
        var parts = new List<string>();
        long counted = 0;
        foreach (var name in names)
        {
            if (searcher.Transaction.OpenTree(name) is not { } tree)
                continue;
            var bytes = (tree.Header.BranchPages + tree.Header.LeafPages + tree.Header.OverflowPages) * StorageLimits.PageSize;
            counted += bytes;
            // The entries and keys trees hold blocks of entries; per entry is what compares across formats.
            var (count, unit) = name is SearchIndex.EntriesTree or SearchIndex.KeysTree ? (searcher.EntryCount, $"entries in {tree.Count:N0} blocks") : (tree.Count, "entries");
            parts.Add(FormattableString.Invariant($"{name} {bytes / 1e6:N1} MB ({count:N0} {unit}, {(double)bytes / Math.Max(1, count):N1} B/entry, {(double)DataBytes(tree) / Math.Max(1, bytes):P0} data)"));
        }
        parts.Add(FormattableString.Invariant($"rest {(fileBytes - counted) / 1e6:N1} MB"));
        return string.Join("; ", parts);
    }

    private static long DataBytes(Folio.Storage.Trees.Tree tree)
    {
        long data = 0;
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            data += cursor.Key.Length + cursor.Value.Length;
        return data;
    }

    private static long Long(string text) => long.Parse(text, CultureInfo.InvariantCulture);
}

/// <summary>Disk usage as <c>du</c> reports it (allocated blocks), so preallocated or sparse files count as they occupy the disk.</summary>
internal static class DiskUsage
{
    public static long Bytes(string directory)
    {
        var info = new ProcessStartInfo("du", ["-s", "-B1", directory]) { RedirectStandardOutput = true };
        using var du = Process.Start(info) ?? throw new InvalidOperationException("Could not start du.");
        var output = du.StandardOutput.ReadToEnd();
        du.WaitForExit();
        return long.Parse(output.Split('\t')[0], CultureInfo.InvariantCulture);
    }

    /// <summary>Each file's apparent size, for the breakdown of where the bytes are.</summary>
    public static IEnumerable<(string Name, long Bytes)> Files(string directory) =>
        new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories)
            .Select(f => (Path.GetRelativePath(directory, f.FullName), f.Length));
}
