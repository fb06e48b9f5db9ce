using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Folio.Benchmarks.Storage;

/// <summary>
/// Where a live database directory's bytes go at one moment: each file's length and the blocks it holds (as
/// <c>du</c> counts them), and the data file's pages as the server sees them (in the file, below the high-water
/// mark, free), so the live footprint can be split into used pages, free pages, growth slack and journals.
/// </summary>
internal sealed record LiveBreakdown(IReadOnlyList<LiveFile> Files, int PageSize, long DataFilePages, long AllocatedPages, long FreePages, int JournalFiles, long JournalBytesWritten)
{
    public static async Task<LiveBreakdown> MeasureAsync(HttpClient client, string databaseDirectory)
    {
        string name = Path.GetFileName(databaseDirectory);
        using JsonDocument storage = JsonDocument.Parse(await client.GetStringAsync($"/databases/{Uri.EscapeDataString(name)}/storage"));
        using JsonDocument stats = JsonDocument.Parse(await client.GetStringAsync($"/databases/{Uri.EscapeDataString(name)}/stats"));
        JsonElement space = storage.RootElement;
        return new LiveBreakdown(
            ListFiles(databaseDirectory),
            space.GetProperty("PageSize").GetInt32(),
            space.GetProperty("DataFilePages").GetInt64(),
            space.GetProperty("AllocatedPages").GetInt64(),
            space.GetProperty("FreePages").GetInt64(),
            space.GetProperty("JournalFiles").GetInt32(),
            stats.RootElement.GetProperty("JournalBytesWritten").GetInt64());
    }

    public string ToMarkdown(string system)
    {
        var text = new StringBuilder();
        const double mb = 1e6;
        text.AppendLine(CultureInfo.InvariantCulture,
            $"{system} live: data file {DataFilePages:N0} pages of {PageSize / 1024} KB, {AllocatedPages:N0} below the high-water mark ({(AllocatedPages - FreePages) * (double)PageSize / mb:F1} MB in use, {FreePages * (double)PageSize / mb:F1} MB free), {JournalFiles} journal file(s) open, {JournalBytesWritten / mb:F1} MB journaled since open.");
        text.AppendLine();
        text.AppendLine("| file | length MB | on disk MB |");
        text.AppendLine("|---|---:|---:|");
        foreach (LiveFile file in Files)
            text.AppendLine(CultureInfo.InvariantCulture, $"| {file.Path} | {file.Length / mb:F1} | {file.Allocated / mb:F1} |");
        return text.ToString();
    }

    private static List<LiveFile> ListFiles(string directory)
    {
        var allocated = new Dictionary<string, long>(StringComparer.Ordinal);
        using (Process du = Process.Start(new ProcessStartInfo("du", ["-a", "-B1", directory]) { RedirectStandardOutput = true, UseShellExecute = false })
            ?? throw new InvalidOperationException("Could not run du."))
        {
            string? line;
            while ((line = du.StandardOutput.ReadLine()) is not null)
            {
                int tab = line.IndexOf('\t', StringComparison.Ordinal);
                allocated[line[(tab + 1)..]] = long.Parse(line.AsSpan(0, tab), CultureInfo.InvariantCulture);
            }

            du.WaitForExit();
        }

        var files = new List<LiveFile>();
        foreach (string path in Directory.GetFiles(directory, "*", SearchOption.AllDirectories))
        {
            long length;
            try
            {
                length = new FileInfo(path).Length;
            }
            catch (IOException)
            {
                // Deleted between the listing and the look (a journal retired meanwhile).
                continue;
            }

            files.Add(new LiveFile(Path.GetRelativePath(directory, path), length, allocated.GetValueOrDefault(path)));
        }

        files.Sort((a, b) => string.CompareOrdinal(a.Path, b.Path));
        return files;
    }
}
