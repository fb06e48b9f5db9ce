using System.Diagnostics;
using System.Globalization;
using Folio.Indexing.Search;
using Folio.Storage;

namespace Folio.Benchmarks.Search;

/// <summary>
/// Where a live index's bytes are, sampled right after the last commit and before close (the point Lucene's
/// <c>size_after_commit</c> is taken): each file's apparent length and allocated blocks (<c>st_blocks</c> × 512, what
/// <c>du</c> counts), and, inside the data file, the pages the committed state uses, its free pages and the
/// length beyond the high-water mark; with the journal's unflushed page versions, which the data file does not hold yet.
/// </summary>
internal static class FolioLiveSize
{
    /// <summary>One line for the report and the log, and the index's allocated and apparent totals.</summary>
    public static (string Breakdown, long Allocated, long Apparent) Sample(SearchIndex index, string directory)
    {
        var files = Stat(directory);
        var stats = index.Environment.GetStats();
        var space = index.Environment.ReportSpace();
        long treePages = 0;
        foreach (var tree in space.Trees)
            treePages += tree.Pages;
        long allocated = 0, apparent = 0;
        var parts = new List<string>();
        foreach (var (name, length, blocks) in files)
        {
            allocated += blocks;
            apparent += length;
            parts.Add(FormattableString.Invariant($"{name} {blocks / 1e6:N1} MB on disk ({length / 1e6:N1} MB long)"));
        }
        var page = (double)StorageLimits.PageSize;
        parts.Add(FormattableString.Invariant(
            $"data file pages: {space.DataFilePages * page / 1e6:N1} MB long, {space.AllocatedPages * page / 1e6:N1} MB below the high-water mark, of which {treePages * page / 1e6:N1} MB tree pages and {space.FreePages * page / 1e6:N1} MB free ({space.FreePages:N0} pages)"));
        parts.Add(FormattableString.Invariant(
            $"journal: {stats.JournalFiles} files, transactions {stats.LastFlushedTransactionId + 1:N0}–{stats.LastCommittedTransactionId:N0} not yet applied, {stats.UnflushedPageVersions:N0} page versions not yet in the data file ({stats.UnflushedPageVersions * page / 1e6:N1} MB), {stats.JournalBytesWritten / 1e6:N1} MB written since open"));
        return (string.Join("; ", parts), allocated, apparent);
    }

    /// <summary>Each file's name, apparent length and allocated bytes, from one <c>stat</c>.</summary>
    private static List<(string Name, long Length, long Blocks)> Stat(string directory)
    {
        var paths = Directory.GetFiles(directory, "*", SearchOption.AllDirectories);
        Array.Sort(paths, StringComparer.Ordinal);
        var info = new ProcessStartInfo("stat", ["-c", "%s\t%b\t%B\t%n", .. paths]) { RedirectStandardOutput = true };
        using var stat = Process.Start(info) ?? throw new InvalidOperationException("Could not start stat.");
        var output = stat.StandardOutput.ReadToEnd();
        stat.WaitForExit();
        var files = new List<(string, long, long)>();
        foreach (var line in output.Split('\n', StringSplitOptions.RemoveEmptyEntries))
        {
            var f = line.Split('\t');
            var blocks = long.Parse(f[1], CultureInfo.InvariantCulture) * long.Parse(f[2], CultureInfo.InvariantCulture);
            files.Add((Path.GetRelativePath(directory, f[3]), long.Parse(f[0], CultureInfo.InvariantCulture), blocks));
        }
        return files;
    }
}
