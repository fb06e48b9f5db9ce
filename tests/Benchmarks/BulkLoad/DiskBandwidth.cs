using System.Diagnostics;
using System.Globalization;
using System.Text.RegularExpressions;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>The disk's sequential write bandwidth by <c>dd oflag=direct</c> (no page cache), on the benchmark's own directory.</summary>
public static partial class DiskBandwidth
{
    /// <summary>Writes <paramref name="megaBytes"/> MB of zeros in 1 MB direct writes and returns MB/s as dd reports it.</summary>
    public static async Task<(double MegaBytesPerSecond, string Command)> MeasureAsync(string directory, int megaBytes)
    {
        string file = Path.Combine(directory, "dd.bin");
        string command = $"dd if=/dev/zero of={file} bs=1M count={megaBytes} oflag=direct";
        var info = new ProcessStartInfo("dd") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        info.ArgumentList.Add("if=/dev/zero");
        info.ArgumentList.Add("of=" + file);
        info.ArgumentList.Add("bs=1M");
        info.ArgumentList.Add("count=" + megaBytes.ToString(CultureInfo.InvariantCulture));
        info.ArgumentList.Add("oflag=direct");
        using Process process = Process.Start(info) ?? throw new InvalidOperationException("dd did not start.");
        string output = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        File.Delete(file);
        // "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 1.23 s, 873 MB/s": recompute from bytes and seconds for MB = 2^20.
        Match match = Copied().Match(output);
        if (process.ExitCode != 0 || !match.Success)
            throw new InvalidOperationException($"dd failed: {output}");
        double bytes = double.Parse(match.Groups["bytes"].Value, CultureInfo.InvariantCulture);
        double seconds = double.Parse(match.Groups["seconds"].Value, CultureInfo.InvariantCulture);
        return (bytes / seconds / (1024 * 1024), command);
    }

    [GeneratedRegex(@"(?<bytes>\d+) bytes .* copied, (?<seconds>[0-9.]+) s")]
    private static partial Regex Copied();
}
