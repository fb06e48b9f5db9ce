using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace Folio.Benchmarks.Soak;

/// <summary>Samples the server process from <c>/proc</c> and its stats endpoint, and the latencies recorded since the last sample.</summary>
public sealed class SoakSampler(int processId, HttpClient http, SoakLatencies latencies)
{
    private readonly long _started = Stopwatch.GetTimestamp();

    /// <summary>Takes one sample.</summary>
    /// <returns>The sample.</returns>
    public async Task<SoakSample> SampleAsync()
    {
        (long rss, int threads) = ReadStatus();
        int handles = Directory.GetFiles($"/proc/{processId}/fd").Length;
        using JsonDocument stats = JsonDocument.Parse(await http.GetStringAsync("/admin/stats"));
        JsonElement memory = stats.RootElement.GetProperty("Memory");
        long heap = memory.GetProperty("ManagedHeapBytes").GetInt64();
        long committed = memory.GetProperty("CommittedBytes").GetInt64();
        long live = memory.GetProperty("LiveAfterLastFullCollectionBytes").GetInt64();
        int loaded = stats.RootElement.GetProperty("LoadedDatabases").GetInt32();
        using JsonDocument database = JsonDocument.Parse(await http.GetStringAsync($"/databases/{SoakWorkload.Database}/stats"));
        JsonElement soak = database.RootElement;
        var store = new SoakStoreSample(
            soak.GetProperty("CountOfDocuments").GetInt64(),
            soak.GetProperty("CountOfTombstones").GetInt64(),
            soak.GetProperty("SizeOnDisk").GetInt64(),
            memory.GetProperty("Gen2Collections").GetInt64(),
            memory.GetProperty("PauseTimePercent").GetDouble());
        return new SoakSample(Stopwatch.GetElapsedTime(_started).TotalMinutes, rss, heap, committed, live, threads, handles, loaded, latencies.TakeInterval(), latencies.Errors, store);
    }

    private (long RssBytes, int Threads) ReadStatus()
    {
        long rss = 0;
        int threads = 0;
        foreach (string line in File.ReadLines($"/proc/{processId}/status"))
        {
            if (line.StartsWith("VmRSS:", StringComparison.Ordinal))
                rss = long.Parse(line.AsSpan(6).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
            else if (line.StartsWith("Threads:", StringComparison.Ordinal))
                threads = int.Parse(line.AsSpan(8).Trim(), CultureInfo.InvariantCulture);
        }

        return (rss, threads);
    }
}
