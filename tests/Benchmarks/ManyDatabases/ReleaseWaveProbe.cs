using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;

namespace Folio.Benchmarks.ManyDatabases;

/// <summary>
/// GETs one document over and over, one request at a time, while the server's other databases go quiet: the
/// requests sent before the first of them has been quiet for <c>Databases:ReleasePagesAfter</c> are the baseline,
/// those after meet the wave of page releases and the blocking collection the server runs once the wave is over. Prints both sets' latency and
/// the collections the server logged.
/// </summary>
internal static class ReleaseWaveProbe
{
    private const double SlowMs = 50;

    public static async Task RunAsync(HttpClient client, string path, TimeSpan duration, TimeSpan firstRelease, StringBuilder timings, string logDirectory)
    {
        var before = new List<double>();
        var during = new List<double>();
        (double At, double Ms) slowestBefore = (0, 0);
        (double At, double Ms) slowestDuring = (0, 0);
        var slow = new List<string>();
        DateTime startedAt = DateTime.UtcNow;
        var watch = Stopwatch.StartNew();
        while (watch.Elapsed < duration)
        {
            TimeSpan sent = watch.Elapsed;
            long started = Stopwatch.GetTimestamp();
            using (HttpResponseMessage response = await client.GetAsync(path))
            {
                if (response.StatusCode != HttpStatusCode.OK)
                    throw new InvalidOperationException($"The probe's GET answered {(int)response.StatusCode}.");
            }

            double ms = Stopwatch.GetElapsedTime(started).TotalMilliseconds;
            bool early = sent < firstRelease;
            (early ? before : during).Add(ms);
            ref (double At, double Ms) slowest = ref early ? ref slowestBefore : ref slowestDuring;
            if (ms > slowest.Ms)
                slowest = (sent.TotalSeconds, ms);
            if (ms >= SlowMs && slow.Count < 40)
                slow.Add(string.Create(CultureInfo.InvariantCulture, $"probe: {ms:F1} ms, sent {startedAt + sent:HH:mm:ss.fff} UTC"));
        }

        Add(timings, $"probe GET of one database before the others' pages are released, 0–{firstRelease.TotalSeconds:F1} s ({before.Count} requests; slowest sent at {slowestBefore.At:F1} s)", before);
        Add(timings, $"probe GET during the wave of page releases and the collection after it, {firstRelease.TotalSeconds:F1}–{duration.TotalSeconds:F1} s ({during.Count} requests; slowest sent at {slowestDuring.At:F1} s)", during);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"probe started at {startedAt:HH:mm:ss.fff} UTC; requests of {SlowMs} ms or more:"));
        foreach (string line in slow)
            Console.WriteLine(line);
        foreach (string file in Directory.Exists(logDirectory) ? Directory.GetFiles(logDirectory) : [])
        {
            using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            using var reader = new StreamReader(stream);
            while (await reader.ReadLineAsync() is { } line)
            {
                if (line.Contains("the heap", StringComparison.Ordinal) && line.Contains("\"@mt\":\"Collect", StringComparison.Ordinal))
                    Console.WriteLine("server: " + line);
            }
        }
    }

    private static void Add(StringBuilder timings, string what, List<double> samples)
    {
        if (samples.Count == 0)
            return;
        samples.Sort();
        double P(double p) => samples[Math.Clamp((int)Math.Ceiling(p / 100 * samples.Count) - 1, 0, samples.Count - 1)];
        string line = string.Create(CultureInfo.InvariantCulture, $"| Folio | {what} | {P(50):F1} | {P(99):F1} | {samples[^1]:F1} | – |");
        timings.AppendLine(line);
        Console.WriteLine(line);
    }
}
