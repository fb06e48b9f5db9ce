using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>
/// Where a Folio server's resident memory lies, by kind of mapping, read from <c>/proc/PID/smaps</c>: the documents'
/// and the indexes' data files (each mapped file's resident pages and mapped length), journals, other files under the
/// data directory, the runtime's images and anonymous memory.
/// </summary>
public sealed class MappingBreakdown
{
    private readonly Dictionary<string, Kind> _kinds = new(StringComparer.Ordinal);

    private MappingBreakdown()
    {
    }

    /// <summary>Reads the mappings of process <paramref name="pid"/>, naming those under <paramref name="dataDirectory"/> by what they hold (Linux only).</summary>
    public static MappingBreakdown Of(int pid, string dataDirectory)
    {
        var breakdown = new MappingBreakdown();
        var files = new Dictionary<string, FileUse>(StringComparer.Ordinal);
        string kind = "anonymous";
        string? path = null;
        long size = 0;
        foreach (string line in File.ReadLines($"/proc/{pid}/smaps"))
        {
            if (IsMappingHeader(line, out string? mapped))
            {
                path = mapped;
                kind = KindOf(mapped, dataDirectory);
                size = 0;
            }
            else if (line.StartsWith("Size:", StringComparison.Ordinal))
            {
                size = Kilobytes(line, "Size:");
            }
            else if (line.StartsWith("Rss:", StringComparison.Ordinal))
            {
                long rss = Kilobytes(line, "Rss:");
                string key = path is not null && kind != "anonymous" ? path : "anonymous:" + kind;
                FileUse use = files.GetValueOrDefault(key, new FileUse(kind, 0, 0));
                // A grown data file has a mapping per size it had; the longest is its length.
                files[key] = use with { RssKb = use.RssKb + rss, MappedKb = Math.Max(use.MappedKb, size) };
            }
        }

        foreach (FileUse use in files.Values)
        {
            Kind total = breakdown._kinds.GetValueOrDefault(use.Kind, default);
            breakdown._kinds[use.Kind] = new Kind(total.Files + 1, total.RssKb + use.RssKb, total.MappedKb + use.MappedKb);
        }

        return breakdown;
    }

    /// <summary>A table, one row per kind of mapping: files mapped, resident MB, and per file resident and mapped KB.</summary>
    public string Table(string moment)
    {
        var table = new StringBuilder();
        table.AppendLine(CultureInfo.InvariantCulture, $"Folio mappings, {moment}:");
        table.AppendLine();
        table.AppendLine("| mapping | files | resident MB | resident KB per file | mapped KB per file |");
        table.AppendLine("|---|---:|---:|---:|---:|");
        foreach (string name in (string[])["documents data file", "index data file", "journal", "other file in the data directory", "runtime and libraries", "anonymous"])
        {
            if (!_kinds.TryGetValue(name, out Kind kind))
                continue;
            bool perFile = name is not ("runtime and libraries" or "anonymous");
            string perFileCells = perFile
                ? string.Create(CultureInfo.InvariantCulture, $"{kind.RssKb / (double)kind.Files:F1} | {kind.MappedKb / (double)kind.Files:F1}")
                : "– | –";
            table.AppendLine(CultureInfo.InvariantCulture, $"| {name} | {(perFile ? kind.Files.ToString(CultureInfo.InvariantCulture) : "–")} | {kind.RssKb / 1024.0:F1} | {perFileCells} |");
        }

        return table.ToString();
    }

    private static bool IsMappingHeader(string line, out string? path)
    {
        path = null;
        // "start-end perms offset dev inode [path]": the first field holds a '-' between two hex numbers.
        int space = line.IndexOf(' ', StringComparison.Ordinal);
        if (space <= 0 || line.IndexOf('-', 0, space) < 0 || line.EndsWith(':'))
            return false;
        if (!long.TryParse(line.AsSpan(0, line.IndexOf('-', StringComparison.Ordinal)), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out _))
            return false;
        string[] fields = line.Split(' ', 6, StringSplitOptions.RemoveEmptyEntries);
        if (fields.Length == 6)
            path = fields[5].Trim();
        return true;
    }

    private static string KindOf(string? path, string dataDirectory)
    {
        if (path is null || path.StartsWith('['))
            return "anonymous";
        if (!path.StartsWith(dataDirectory, StringComparison.Ordinal))
            return path.StartsWith('/') ? "runtime and libraries" : "anonymous";
        if (path.EndsWith(".journal", StringComparison.Ordinal))
            return "journal";
        if (path.EndsWith("data.folio", StringComparison.Ordinal))
            return path.Contains("/Indexes/", StringComparison.Ordinal) ? "index data file" : "documents data file";
        return "other file in the data directory";
    }

    private static long Kilobytes(string line, string key) =>
        long.Parse(line.AsSpan(key.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture);

    private readonly record struct FileUse(string Kind, long RssKb, long MappedKb);

    private readonly record struct Kind(int Files, long RssKb, long MappedKb);
}
