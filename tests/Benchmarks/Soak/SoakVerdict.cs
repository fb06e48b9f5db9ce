namespace Folio.Benchmarks.Soak;

/// <summary>The soak's bounds, checked over the samples taken after the warm-up.</summary>
public sealed class SoakVerdict
{
    private readonly List<string> _findings = [];

    private SoakVerdict()
    {
    }

    /// <summary>Whether every bound held.</summary>
    public bool Passed { get; private set; } = true;

    /// <summary>One line per bound: what was measured and whether it held.</summary>
    public IReadOnlyList<string> Findings => _findings;

    /// <summary>Checks the growth of RSS and of live managed data, each operation's p99 drift and the errors.</summary>
    /// <param name="samples">Every sample, in order.</param>
    /// <param name="warmup">Samples up to this many minutes are left out.</param>
    /// <param name="errors">Errors over the whole run.</param>
    /// <returns>The verdict.</returns>
    public static SoakVerdict Judge(IReadOnlyList<SoakSample> samples, TimeSpan warmup, long errors)
    {
        var verdict = new SoakVerdict();
        var steady = new List<SoakSample>();
        foreach (SoakSample sample in samples)
        {
            if (sample.Minutes > warmup.TotalMinutes)
                steady.Add(sample);
        }

        if (steady.Count < 3)
        {
            verdict.Fail($"only {steady.Count} samples after the warm-up; at least 3 are needed to judge");
            return verdict;
        }

        int third = Math.Max(1, steady.Count / 3);
        // Medians of thirds, not the first and last samples: under server GC the RSS is a sawtooth of gen0 budget and
        // gen2 garbage between full collections (275-634 MB within one 10-minute run), so two single samples say more
        // about where each fell in that cycle than about growth. A leak still moves the median of the last third.
        CheckGrowth(verdict, "RSS", Median(steady, 0, third, s => s.RssBytes), Median(steady, steady.Count - third, steady.Count, s => s.RssBytes));
        CheckGrowth(verdict, "live managed data", Median(steady, 0, third, s => s.LiveBytes), Median(steady, steady.Count - third, steady.Count, s => s.LiveBytes));
        foreach (SoakOperation operation in Enum.GetValues<SoakOperation>())
        {
            double first = MedianP99(steady, 0, third, operation);
            double last = MedianP99(steady, steady.Count - third, steady.Count, operation);
            if (first <= 0 || last <= 0)
            {
                verdict._findings.Add($"{operation}: too few runs to compare p99 (first third {first:0.##} ms, last third {last:0.##} ms)");
                continue;
            }

            double drift = (last - first) / first;
            verdict.Check(drift <= SoakOptions.MaxP99Drift, $"{operation} p99 {first:0.##} → {last:0.##} ms (medians of the first and last thirds): {drift:+0.0%;-0.0%} (bound +{SoakOptions.MaxP99Drift:0%})");
        }

        // Not bounds: what the data did meanwhile, so that a p99 drift can be set beside the database's growth.
        verdict._findings.Add($"context: soak database documents {Median(steady, 0, third, s => s.Store.Documents):N0} → {Median(steady, steady.Count - third, steady.Count, s => s.Store.Documents):N0}, "
            + $"tombstones {Median(steady, 0, third, s => s.Store.Tombstones):N0} → {Median(steady, steady.Count - third, steady.Count, s => s.Store.Tombstones):N0}, "
            + $"data file {Mb(Median(steady, 0, third, s => s.Store.DataFileBytes))} → {Mb(Median(steady, steady.Count - third, steady.Count, s => s.Store.DataFileBytes))} MB, "
            + $"full collections {steady[0].Store.Gen2Collections:N0} → {steady[^1].Store.Gen2Collections:N0} (medians of the first and last thirds; collections at the first and last samples)");
        verdict.Check(errors == 0, $"errors: {errors} (bound 0)");
        return verdict;
    }

    private static void CheckGrowth(SoakVerdict verdict, string what, long first, long last)
    {
        double growth = (last - first) / (double)Math.Max(1, first);
        verdict.Check(growth <= SoakOptions.MaxRssGrowth, $"{what} {Mb(first)} → {Mb(last)} MB (medians of the first and last thirds after the warm-up): {growth:+0.0%;-0.0%} (bound +{SoakOptions.MaxRssGrowth:0%})");
    }

    private static long Median(List<SoakSample> samples, int from, int to, Func<SoakSample, long> value)
    {
        var values = new List<long>();
        for (int i = from; i < to; i++)
            values.Add(value(samples[i]));
        values.Sort();
        return values[values.Count / 2];
    }

    private static double MedianP99(List<SoakSample> samples, int from, int to, SoakOperation operation)
    {
        var values = new List<double>();
        for (int i = from; i < to; i++)
        {
            (long count, double p99) = samples[i].Operations[(int)operation];
            if (count > 0)
                values.Add(p99);
        }

        if (values.Count == 0)
            return 0;
        values.Sort();
        return values[values.Count / 2];
    }

    private static string Mb(long bytes) => (bytes / 1048576.0).ToString("0.0", System.Globalization.CultureInfo.InvariantCulture);

    private void Check(bool held, string finding)
    {
        _findings.Add((held ? "held: " : "BROKEN: ") + finding);
        Passed &= held;
    }

    private void Fail(string finding)
    {
        _findings.Add("BROKEN: " + finding);
        Passed = false;
    }
}
