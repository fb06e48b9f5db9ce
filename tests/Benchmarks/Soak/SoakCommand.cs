using System.Diagnostics;
using Folio.Benchmarks.Http;
using Folio.Client;

namespace Folio.Benchmarks.Soak;

/// <summary>
/// <c>dotnet run -c Release --project tests/Benchmarks -- soak [--minutes 30] [--warmup-minutes 5] [--sample-seconds 60]
/// [--tenants 20] [--out DIR]</c>: Folio (a child process) under a mixed load for a long time (see <see cref="SoakWorkload"/>),
/// sampling RSS, managed heap, threads, descriptors and each operation's p99 per interval, then checking the bounds after
/// the warm-up: RSS growth ≤ 10%, p99 drift ≤ 20%, no errors. Exits 1 when a bound is broken, so a test can run a short
/// version. The report, the samples and the plots go to <c>--out</c>.
/// </summary>
public static class SoakCommand
{
    /// <summary>The command name BenchmarkEntry dispatches on.</summary>
    public const string Command = "soak";

    /// <summary>Runs the command.</summary>
    /// <param name="args">The options.</param>
    /// <returns>0 when every bound held, 1 when one broke, 2 for bad options.</returns>
    public static async Task<int> RunAsync(string[] args)
    {
        SoakOptions options;
        try
        {
            options = SoakOptions.Parse(args);
        }
        catch (ArgumentException ex)
        {
            Console.Error.WriteLine(ex.Message);
            return 2;
        }

        Directory.CreateDirectory(options.Output);
        int tcpPort = HttpServerProcess.FreePort();
        using HttpServerProcess folio = await BenchServers.StartFolioAsync(
            Path.Combine(options.Output, "data"),
            Path.Combine(options.Output, "folio.log"),
            $"--TcpPort={tcpPort}",
            "--Databases:IdleUnloadAfter=00:00:05",
            "--Serilog:MinimumLevel:Override:Serilog.AspNetCore.RequestLoggingMiddleware=Warning");
        using HttpClient http = BenchServers.CreateClient(folio.Url);
        using var store = new DocumentStore { Urls = [folio.Url.ToString()], Database = SoakWorkload.Database, TcpPort = tcpPort };
        store.Initialize();
        var latencies = new SoakLatencies();
        var workload = new SoakWorkload(http, store, latencies, options.Tenants);
        Console.WriteLine($"soak: setting up (output {options.Output}) …");
        await workload.SetUpAsync();

        Console.WriteLine($"soak: {options.Duration.TotalMinutes:0.#} minutes of load, a sample every {options.SampleInterval.TotalSeconds:0} s");
        var samples = new List<SoakSample>();
        var sampler = new SoakSampler(folio.Id, http, latencies);
        using var stop = new CancellationTokenSource(options.Duration);
        Task load = workload.RunAsync(stop.Token);
        var clock = Stopwatch.StartNew();
        while (!stop.IsCancellationRequested)
        {
            TimeSpan next = (options.SampleInterval * (samples.Count + 1)) - clock.Elapsed;
            if (next > TimeSpan.Zero)
                await Task.WhenAny(Task.Delay(next), load);
            if (clock.Elapsed > options.Duration + options.SampleInterval || load.IsCompleted)
                break;
            SoakSample sample = await sampler.SampleAsync();
            samples.Add(sample);
            Console.WriteLine($"  {sample.Minutes,5:0.0} min: RSS {sample.RssBytes / 1048576.0:0} MB, heap {sample.ManagedHeapBytes / 1048576.0:0} MB, threads {sample.Threads}, fds {sample.Handles}, loaded {sample.LoadedDatabases}, errors {sample.Errors}, GET p99 {sample.Operations[(int)SoakOperation.Get].P99Ms:0.#} ms");
        }

        await load;
        await folio.StopAsync();
        SoakVerdict verdict = SoakVerdict.Judge(samples, options.Warmup, latencies.Errors);
        Console.WriteLine();
        Console.WriteLine(SoakReport.Write(options, samples, verdict, latencies, workload));
        return verdict.Passed ? 0 : 1;
    }
}
