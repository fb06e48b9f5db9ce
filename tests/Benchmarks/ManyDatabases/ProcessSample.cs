using System.Globalization;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>A process's threads, resident memory and open file descriptors at one moment, read from <c>/proc</c>.</summary>
/// <param name="Threads">Threads of the process.</param>
/// <param name="RssBytes">Resident set size.</param>
/// <param name="Descriptors">Open file descriptors.</param>
/// <param name="AnonymousBytes">Resident anonymous memory: the managed heap, native allocations and stacks.</param>
/// <param name="FileBytes">Resident file-backed memory (proportional share): mapped data files and the runtime's own images.</param>
public readonly record struct ProcessSample(int Threads, long RssBytes, int Descriptors, long AnonymousBytes, long FileBytes)
{
    /// <summary>The table's header cells matching <see cref="Cells"/>.</summary>
    public const string Header = "threads | RSS MB | anon MB | file MB | fds";

    /// <summary>Reads the sample of process <paramref name="pid"/> (Linux only).</summary>
    public static ProcessSample Of(int pid)
    {
        int threads = 0;
        long rss = 0;
        foreach (string line in File.ReadLines($"/proc/{pid}/status"))
        {
            if (line.StartsWith("Threads:", StringComparison.Ordinal))
                threads = int.Parse(line.AsSpan(8).Trim(), CultureInfo.InvariantCulture);
            else if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                rss = Kilobytes(line, "VmRSS:");
        }

        // smaps_rollup splits the resident set: anonymous memory is the heap and native allocations, the file part is
        // mapped files, so a database whose files stay mapped after unload shows here and not as heap.
        long anonymous = 0;
        long file = 0;
        foreach (string line in File.ReadLines($"/proc/{pid}/smaps_rollup"))
        {
            if (line.StartsWith("Anonymous:", StringComparison.Ordinal))
                anonymous = Kilobytes(line, "Anonymous:");
            else if (line.StartsWith("Pss_File:", StringComparison.Ordinal))
                file = Kilobytes(line, "Pss_File:");
        }

        int descriptors = Directory.GetFileSystemEntries($"/proc/{pid}/fd").Length;
        return new ProcessSample(threads, rss, descriptors, anonymous, file);
    }

    /// <summary>As a table's cells, <see cref="Header"/>.</summary>
    public string Cells() => string.Create(CultureInfo.InvariantCulture, $"{Threads} | {Mb(RssBytes)} | {Mb(AnonymousBytes)} | {Mb(FileBytes)} | {Descriptors}");

    private static long Kilobytes(string line, string key) =>
        long.Parse(line.AsSpan(key.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;

    private static string Mb(long bytes) => (bytes / (1024.0 * 1024)).ToString("F0", CultureInfo.InvariantCulture);
}
