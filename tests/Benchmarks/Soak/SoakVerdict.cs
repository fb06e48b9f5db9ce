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

    /// <summary>Checks RSS growth, each operation's p99 drift and the errors.</summary>
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

        double growth = (steady[^1].RssBytes - steady[0].RssBytes) / (double)steady[0].RssBytes;
        verdict.Check(growth <= SoakOptions.MaxRssGrowth, $"RSS {Mb(steady[0].RssBytes)} → {Mb(steady[^1].RssBytes)} MB after the warm-up: {growth:+0.0%;-0.0%} (bound +{SoakOptions.MaxRssGrowth:0%})");

        int third = Math.Max(1, steady.Count / 3);
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

        verdict.Check(errors == 0, $"errors: {errors} (bound 0)");
        return verdict;
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
