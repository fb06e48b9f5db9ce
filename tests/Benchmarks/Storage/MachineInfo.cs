using System.Runtime.InteropServices;
using Folio.Benchmarks.Storage.Lmdb;

namespace Folio.Benchmarks.Storage;

/// <summary>What a result table needs to say about where it was measured: numbers mean little without it.</summary>
internal static class MachineInfo
{
    public static IEnumerable<string> Describe(string dataDirectory)
    {
        yield return $"- CPU: {CpuModel()}, {Environment.ProcessorCount} logical cores";
        yield return $"- Memory: {MemoryGiB()}";
        yield return $"- OS: {RuntimeInformation.OSDescription}; {RuntimeInformation.FrameworkDescription}";
        yield return $"- Data directory: {Path.GetFullPath(dataDirectory)} on {FileSystemOf(dataDirectory)}";
        yield return $"- LMDB: {LmdbVersion()}";
    }

    /// <summary>The 1, 5 and 15 minute load averages: on a shared machine, how contended the numbers were.</summary>
    public static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "unknown";

    private static string CpuModel() => FirstValue("/proc/cpuinfo", "model name") ?? "unknown CPU";

    private static string MemoryGiB()
    {
        var total = FirstValue("/proc/meminfo", "MemTotal");
        if (total is null || !long.TryParse(total.Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], out var kib))
            return "unknown";
        return $"{kib / (1024.0 * 1024):F1} GiB";
    }

    private static string? FirstValue(string file, string field)
    {
        if (!File.Exists(file))
            return null;
        foreach (var line in File.ReadLines(file))
        {
            var colon = line.IndexOf(':');
            if (colon > 0 && line[..colon].Trim() == field)
                return line[(colon + 1)..].Trim();
        }
        return null;
    }

    /// <summary>The device and filesystem of the mount holding <paramref name="directory"/> (the longest matching mount point).</summary>
    private static string FileSystemOf(string directory)
    {
        if (!File.Exists("/proc/mounts"))
            return "unknown filesystem";
        var path = Path.GetFullPath(directory);
        string? best = null;
        var bestLength = -1;
        foreach (var line in File.ReadLines("/proc/mounts"))
        {
            var fields = line.Split(' ');
            if (fields.Length < 3)
                continue;
            var mountPoint = fields[1];
            var matches = path == mountPoint || path.StartsWith(mountPoint.TrimEnd('/') + "/", StringComparison.Ordinal);
            if (matches && mountPoint.Length > bestLength)
            {
                bestLength = mountPoint.Length;
                best = $"{fields[0]} ({fields[2]}, mounted at {mountPoint}{DiskKind(fields[0])})";
            }
        }
        return best ?? "unknown filesystem";
    }

    private static string DiskKind(string device)
    {
        var rotational = $"/sys/block/{Path.GetFileName(device)}/queue/rotational";
        if (!File.Exists(rotational))
            return "";
        return File.ReadAllText(rotational).Trim() == "0" ? ", non-rotational" : ", rotational";
    }

    private static string LmdbVersion()
    {
        try
        {
            return Marshal.PtrToStringUTF8(LmdbNative.Version(out _, out _, out _)) ?? "unknown";
        }
        catch (DllNotFoundException)
        {
            return "not installed (run tests/Benchmarks/setup-peers.sh)";
        }
    }
}
