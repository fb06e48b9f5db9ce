using System.Globalization;

namespace Folio.Benchmarks.Soak;

/// <summary>The soak's settings: how long, how often to sample, where the report goes.</summary>
/// <param name="Duration">The whole run, warm-up included.</param>
/// <param name="Warmup">The part at the start that the bounds ignore.</param>
/// <param name="SampleInterval">How often the process and the latencies are sampled.</param>
/// <param name="Tenants">Small databases touched at random, which idle unload keeps closing and the next request reopens.</param>
/// <param name="Output">Where the report, the samples and the plots are written.</param>
public sealed record SoakOptions(TimeSpan Duration, TimeSpan Warmup, TimeSpan SampleInterval, int Tenants, string Output)
{
    /// <summary>RSS, and the live managed data, may grow by this much from the first third of the samples after the warm-up to the last (medians).</summary>
    public const double MaxRssGrowth = 0.10;

    /// <summary>An operation's p99 over the last third of the samples after the warm-up may exceed the first third's by this much.</summary>
    public const double MaxP99Drift = 0.20;

    /// <summary>Reads <c>--minutes N --warmup-minutes N --sample-seconds N --tenants N --out DIR</c>.</summary>
    /// <param name="args">The command's arguments.</param>
    /// <returns>The options.</returns>
    /// <exception cref="ArgumentException">An unknown option or a bad value.</exception>
    public static SoakOptions Parse(string[] args)
    {
        double minutes = 30, warmup = 5, sampleSeconds = 60;
        int tenants = 20;
        string output = Path.Combine(Path.GetTempPath(), "folio-soak-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture));
        for (int i = 0; i < args.Length; i++)
        {
            string name = args[i];
            string value = i + 1 < args.Length ? args[++i] : throw new ArgumentException($"Option '{name}' needs a value.");
            switch (name)
            {
                case "--minutes": minutes = double.Parse(value, CultureInfo.InvariantCulture); break;
                case "--warmup-minutes": warmup = double.Parse(value, CultureInfo.InvariantCulture); break;
                case "--sample-seconds": sampleSeconds = double.Parse(value, CultureInfo.InvariantCulture); break;
                case "--tenants": tenants = int.Parse(value, CultureInfo.InvariantCulture); break;
                case "--out": output = value; break;
                default: throw new ArgumentException($"Unknown option '{name}'. Options: --minutes N --warmup-minutes N --sample-seconds N --tenants N --out DIR");
            }
        }

        if (warmup >= minutes || sampleSeconds <= 0 || tenants < 1)
            throw new ArgumentException("The warm-up must be shorter than the run, the sample interval positive and the tenants at least 1.");
        return new SoakOptions(TimeSpan.FromMinutes(minutes), TimeSpan.FromMinutes(warmup), TimeSpan.FromSeconds(sampleSeconds), tenants, output);
    }
}
