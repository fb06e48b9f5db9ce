using System.Globalization;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>A process's threads, resident memory and open file descriptors at one moment, read from <c>/proc</c>.</summary>
/// <param name="Threads">Threads of the process.</param>
/// <param name="RssBytes">Resident set size.</param>
/// <param name="Descriptors">Open file descriptors.</param>
public readonly record struct ProcessSample(int Threads, long RssBytes, int Descriptors)
{
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
                rss = long.Parse(line.AsSpan(6).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
        }

        int descriptors = Directory.GetFileSystemEntries($"/proc/{pid}/fd").Length;
        return new ProcessSample(threads, rss, descriptors);
    }

    /// <summary>As a table's three cells: threads | RSS MB | fds.</summary>
    public string Cells() => string.Create(CultureInfo.InvariantCulture, $"{Threads} | {RssBytes / (1024.0 * 1024):F0} | {Descriptors}");
}
