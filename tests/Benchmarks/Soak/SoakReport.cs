using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace Folio.Benchmarks.Soak;

/// <summary>Writes a soak's samples (CSV), its report (Markdown) and its plots (memory, resources, the soak database and p99s; SVG, and PNG where ImageMagick's <c>convert</c> is on PATH).</summary>
public static class SoakReport
{
    /// <summary>Writes everything under <see cref="SoakOptions.Output"/>.</summary>
    /// <param name="options">The run's settings.</param>
    /// <param name="samples">Every sample, in order.</param>
    /// <param name="verdict">The bounds' outcome.</param>
    /// <param name="latencies">For the first errors.</param>
    /// <param name="workload">For the consumers' counts.</param>
    /// <returns>The Markdown report.</returns>
    public static string Write(SoakOptions options, IReadOnlyList<SoakSample> samples, SoakVerdict verdict, SoakLatencies latencies, SoakWorkload workload)
    {
        Directory.CreateDirectory(options.Output);
        SoakOperation[] operations = Enum.GetValues<SoakOperation>();
        var csv = new StringBuilder("minutes,rss_mb,managed_heap_mb,gc_committed_mb,live_mb,threads,handles,loaded_databases,errors,documents,tombstones,data_file_mb,gen2_collections,gc_pause_percent");
        foreach (SoakOperation operation in operations)
            csv.Append(CultureInfo.InvariantCulture, $",{operation}_count,{operation}_p99_ms");
        csv.AppendLine();
        foreach (SoakSample s in samples)
        {
            csv.Append(CultureInfo.InvariantCulture, $"{s.Minutes:0.00},{Mb(s.RssBytes):0.0},{Mb(s.ManagedHeapBytes):0.0},{Mb(s.GcCommittedBytes):0.0},{Mb(s.LiveBytes):0.0},{s.Threads},{s.Handles},{s.LoadedDatabases},{s.Errors}");
            csv.Append(CultureInfo.InvariantCulture, $",{s.Store.Documents},{s.Store.Tombstones},{Mb(s.Store.DataFileBytes):0.0},{s.Store.Gen2Collections},{s.Store.GcPausePercent:0.##}");
            foreach ((long count, double p99) in s.Operations)
                csv.Append(CultureInfo.InvariantCulture, $",{count},{p99:0.###}");
            csv.AppendLine();
        }

        File.WriteAllText(Path.Combine(options.Output, "soak-samples.csv"), csv.ToString());
        var minutes = new List<double>();
        foreach (SoakSample s in samples)
            minutes.Add(s.Minutes);
        Plot(options, "soak-memory", "Memory", "MB", minutes, [("RSS", Series(samples, s => Mb(s.RssBytes))), ("managed heap", Series(samples, s => Mb(s.ManagedHeapBytes))),
            ("GC committed", Series(samples, s => Mb(s.GcCommittedBytes))), ("live after full GC", Series(samples, s => Mb(s.LiveBytes)))]);
        Plot(options, "soak-resources", "Threads, handles and loaded databases", "count", minutes, [("threads", Series(samples, s => s.Threads)), ("file descriptors", Series(samples, s => s.Handles)), ("loaded databases", Series(samples, s => s.LoadedDatabases))]);
        Plot(options, "soak-store", "The soak database", "thousands / MB", minutes, [("documents (K)", Series(samples, s => s.Store.Documents / 1000.0)), ("tombstones (K)", Series(samples, s => s.Store.Tombstones / 1000.0)),
            ("data file MB", Series(samples, s => Mb(s.Store.DataFileBytes)))]);
        var p99s = new List<(string, double[])>();
        foreach (SoakOperation operation in operations)
            p99s.Add((operation.ToString(), Series(samples, s => s.Operations[(int)operation].Count == 0 ? double.NaN : s.Operations[(int)operation].P99Ms)));
        Plot(options, "soak-p99", "p99 per operation, per sample interval", "ms", minutes, p99s);

        var report = new StringBuilder();
        report.AppendLine(CultureInfo.InvariantCulture, $"Soak: {options.Duration.TotalMinutes:0.#} minutes ({options.Warmup.TotalMinutes:0.#} of warm-up), a sample every {options.SampleInterval.TotalSeconds:0} s, {options.Tenants} tenant databases; {(verdict.Passed ? "every bound held" : "a bound was broken")}.");
        report.AppendLine();
        foreach (string finding in verdict.Findings)
            report.AppendLine("- " + finding);
        report.AppendLine(CultureInfo.InvariantCulture, $"- subscription worker received {workload.Subscribed:N0} documents; changes consumer {workload.Changes:N0} changes");
        foreach (string error in latencies.FirstErrors)
            report.AppendLine("- error: " + error);
        report.AppendLine();
        report.Append("| minute | RSS MB | heap MB | committed MB | live MB | threads | fds | loaded dbs | errors | documents | tombstones | data file MB | gen2 GCs | GC pause % |");
        foreach (SoakOperation operation in operations)
            report.Append(CultureInfo.InvariantCulture, $" {operation} n / p99 ms |");
        report.AppendLine();
        report.Append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (SoakOperation _ in operations)
            report.Append("---:|");
        report.AppendLine();
        foreach (SoakSample s in samples)
        {
            report.Append(CultureInfo.InvariantCulture, $"| {s.Minutes:0.0} | {Mb(s.RssBytes):0} | {Mb(s.ManagedHeapBytes):0} | {Mb(s.GcCommittedBytes):0} | {Mb(s.LiveBytes):0} | {s.Threads} | {s.Handles} | {s.LoadedDatabases} | {s.Errors} |");
            report.Append(CultureInfo.InvariantCulture, $" {s.Store.Documents:N0} | {s.Store.Tombstones:N0} | {Mb(s.Store.DataFileBytes):0.0} | {s.Store.Gen2Collections:N0} | {s.Store.GcPausePercent:0.##} |");
            foreach ((long count, double p99) in s.Operations)
                report.Append(CultureInfo.InvariantCulture, $" {count:N0} / {p99:0.#} |");
            report.AppendLine();
        }

        File.WriteAllText(Path.Combine(options.Output, "soak-report.md"), report.ToString());
        return report.ToString();
    }

    private static double[] Series(IReadOnlyList<SoakSample> samples, Func<SoakSample, double> value)
    {
        var values = new double[samples.Count];
        for (int i = 0; i < values.Length; i++)
            values[i] = value(samples[i]);
        return values;
    }

    private static void Plot(SoakOptions options, string name, string title, string unit, List<double> minutes, IReadOnlyList<(string, double[])> series)
    {
        string svg = Path.Combine(options.Output, name + ".svg");
        File.WriteAllText(svg, SvgChart.Draw(title, unit, minutes, series));
        try
        {
            using Process? convert = Process.Start(new ProcessStartInfo("convert", [svg, Path.ChangeExtension(svg, ".png")]) { UseShellExecute = false, RedirectStandardError = true });
            convert?.WaitForExit(30_000);
        }
        catch (System.ComponentModel.Win32Exception)
        {
            // Without ImageMagick the SVG is the plot.
        }
    }

    private static double Mb(long bytes) => bytes / 1048576.0;
}
