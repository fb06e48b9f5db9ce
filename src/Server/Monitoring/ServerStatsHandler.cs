using System.Diagnostics;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Monitoring;

/// <summary>
/// <c>GET /admin/stats</c>: what the whole server is doing — requests, latency, CPU, memory, threads and disk —
/// with the last minutes as one-second samples, so a dashboard can draw charts from its first poll.
/// </summary>
public sealed class ServerStatsHandler
{
    private readonly ServerMetrics _metrics;
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="metrics">The request counts and durations.</param>
    /// <param name="databases">The open databases.</param>
    /// <param name="options">Names the data directory.</param>
    public ServerStatsHandler(ServerMetrics metrics, DatabaseRegistry databases, ServerOptions options)
    {
        _metrics = metrics;
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// Answers <c>{"StartedAt","UptimeSeconds","Databases","LoadedDatabases","Requests":{"Total","Failed"},"Latency":{"P50Ms","P90Ms","P99Ms",
    /// "P999Ms","MaxMs"},"Cpu":{"Cores","ProcessSeconds"},"Memory":{"WorkingSetBytes","ManagedHeapBytes","Gen0Collections",
    /// "Gen1Collections","Gen2Collections","PauseTimePercent","HeapAfterLastCollectionBytes","CommittedBytes","FragmentedBytes",
    /// "LiveAfterLastFullCollectionBytes"},"Threads":{"Process","ThreadPool"},"Disk":{"DataDirectory",
    /// "UsedBytes","FreeBytes","TotalBytes"},"History":[{"At","Requests","Failed","P50Ms","P99Ms","MaxMs","CpuPercent","Writes","Indexed"}]}</c>.
    /// Latency counts questions only: feeds, WebSockets and bulk inserts are counted as requests but not timed.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/admin/stats", Access = RouteAccess.Admin)]
    public async ValueTask Get(FolioRequest request)
    {
        var snapshot = new Snapshot(
            _metrics,
            _databases.Count,
            _databases.LoadedCount,
            Disk(_options.DataDir),
            CountProcessThreads());
        await JsonResponse.WriteAsync(request.Response, snapshot, Write, request.Aborted);
    }

    private static void Write(Utf8JsonWriter writer, Snapshot snapshot)
    {
        ServerMetrics metrics = snapshot.Metrics;
        writer.WriteStartObject();
        writer.WriteString("StartedAt"u8, metrics.StartedAt);
        writer.WriteNumber("UptimeSeconds"u8, Math.Round((DateTimeOffset.UtcNow - metrics.StartedAt).TotalSeconds, 1));
        writer.WriteNumber("Databases"u8, snapshot.Databases);
        writer.WriteNumber("LoadedDatabases"u8, snapshot.LoadedDatabases);

        writer.WriteStartObject("Requests"u8);
        writer.WriteNumber("Total"u8, metrics.Requests);
        writer.WriteNumber("Failed"u8, metrics.Failed);
        writer.WriteEndObject();

        writer.WriteStartObject("Latency"u8);
        writer.WriteNumber("P50Ms"u8, Milliseconds(metrics.SinceStartPercentile(50)));
        writer.WriteNumber("P90Ms"u8, Milliseconds(metrics.SinceStartPercentile(90)));
        writer.WriteNumber("P99Ms"u8, Milliseconds(metrics.SinceStartPercentile(99)));
        writer.WriteNumber("P999Ms"u8, Milliseconds(metrics.SinceStartPercentile(99.9)));
        writer.WriteNumber("MaxMs"u8, Milliseconds(metrics.SinceStartMax()));
        writer.WriteEndObject();

        writer.WriteStartObject("Cpu"u8);
        writer.WriteNumber("Cores"u8, Environment.ProcessorCount);
        writer.WriteNumber("ProcessSeconds"u8, Math.Round(Environment.CpuUsage.TotalTime.TotalSeconds, 2));
        writer.WriteEndObject();

        GCMemoryInfo gc = GC.GetGCMemoryInfo();
        writer.WriteStartObject("Memory"u8);
        writer.WriteNumber("WorkingSetBytes"u8, Environment.WorkingSet);
        writer.WriteNumber("ManagedHeapBytes"u8, GC.GetTotalMemory(forceFullCollection: false));
        writer.WriteNumber("Gen0Collections"u8, GC.CollectionCount(0));
        writer.WriteNumber("Gen1Collections"u8, GC.CollectionCount(1));
        writer.WriteNumber("Gen2Collections"u8, GC.CollectionCount(2));
        writer.WriteNumber("PauseTimePercent"u8, gc.PauseTimePercentage);
        writer.WriteNumber("HeapAfterLastCollectionBytes"u8, gc.HeapSizeBytes);
        writer.WriteNumber("CommittedBytes"u8, gc.TotalCommittedBytes);
        writer.WriteNumber("FragmentedBytes"u8, gc.FragmentedBytes);
        writer.WriteNumber("LiveAfterLastFullCollectionBytes"u8, GC.GetGCMemoryInfo(GCKind.FullBlocking).PromotedBytes);
        writer.WriteEndObject();

        writer.WriteStartObject("Threads"u8);
        writer.WriteNumber("Process"u8, snapshot.ProcessThreads);
        writer.WriteNumber("ThreadPool"u8, ThreadPool.ThreadCount);
        writer.WriteEndObject();

        writer.WriteStartObject("Disk"u8);
        writer.WriteString("DataDirectory"u8, snapshot.Disk.Directory);
        writer.WriteNumber("UsedBytes"u8, snapshot.Disk.Used);
        writer.WriteNumber("FreeBytes"u8, snapshot.Disk.Free);
        writer.WriteNumber("TotalBytes"u8, snapshot.Disk.Total);
        writer.WriteEndObject();

        writer.WriteStartArray("History"u8);
        foreach (ServerSample sample in metrics.History())
        {
            writer.WriteStartObject();
            writer.WriteNumber("At"u8, sample.At);
            writer.WriteNumber("Requests"u8, sample.Requests);
            writer.WriteNumber("Failed"u8, sample.Failed);
            writer.WriteNumber("P50Ms"u8, Milliseconds(sample.P50Microseconds));
            writer.WriteNumber("P99Ms"u8, Milliseconds(sample.P99Microseconds));
            writer.WriteNumber("MaxMs"u8, Milliseconds(sample.MaxMicroseconds));
            writer.WriteNumber("CpuPercent"u8, sample.CpuPercent);
            writer.WriteNumber("Writes"u8, sample.Writes);
            writer.WriteNumber("Indexed"u8, sample.Indexed);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static double Milliseconds(long microseconds) => microseconds / 1000.0;

    private static int CountProcessThreads()
    {
        using Process process = Process.GetCurrentProcess();
        return process.Threads.Count;
    }

    /// <summary>The bytes under the data directory (databases, indexes, journals, logs) and the free space of its volume.</summary>
    private static DiskUse Disk(string dataDirectory)
    {
        string full = Path.GetFullPath(dataDirectory);
        long used = 0;
        var walk = new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true, AttributesToSkip = FileAttributes.ReparsePoint };
        foreach (FileInfo file in new DirectoryInfo(full).EnumerateFiles("*", walk))
        {
            try
            {
                used += file.Length;
            }
            catch (IOException)
            {
                // A file deleted between listing and reading (a finished index rebuild, a rotated log) uses nothing.
            }
        }

        var drive = new DriveInfo(full);
        return new DiskUse(full, used, drive.AvailableFreeSpace, drive.TotalSize);
    }

    private readonly record struct DiskUse(string Directory, long Used, long Free, long Total);

    private readonly record struct Snapshot(ServerMetrics Metrics, int Databases, int LoadedDatabases, DiskUse Disk, int ProcessThreads);
}
