using System.Diagnostics;
using System.Globalization;

namespace Folio.Benchmarks.Http;

/// <summary>One wrk run's numbers, as lua/report.lua prints them.</summary>
public sealed record WrkResult(long Requests, TimeSpan Duration, long Errors, double P50Ms, double P90Ms, double P99Ms, double MaxMs)
{
    /// <summary>Completed requests per second.</summary>
    public double RequestsPerSecond => Requests / Duration.TotalSeconds;
}

/// <summary>Runs Debian's wrk with the Lua scripts beside this file.</summary>
public static class Wrk
{
    /// <summary>The folder holding the benchmark sources (the Lua scripts, node_modules of the setup script).</summary>
    public static string HttpDirectory { get; } = FindHttpDirectory();

    /// <summary>Throws with the setup command when wrk is not installed.</summary>
    public static void EnsureInstalled()
    {
        if (!File.Exists("/usr/bin/wrk") && !File.Exists("/usr/local/bin/wrk"))
            throw new InvalidOperationException($"wrk is not installed: run {Path.Combine(HttpDirectory, "setup-http-load.sh")}");
    }

    /// <summary>
    /// Runs <paramref name="script"/> (a file in lua/) against <paramref name="url"/> for <paramref name="duration"/>
    /// over <paramref name="connections"/> keep-alive connections.
    /// </summary>
    public static async Task<WrkResult> RunAsync(Uri url, string script, IReadOnlyList<string> scriptArguments, int connections, TimeSpan duration, params string[] headers)
    {
        // wrk runs a thread per core at most usefully; this machine has two and the server needs them too.
        int threads = Math.Min(connections, Math.Max(1, Environment.ProcessorCount / 2));
        var start = new ProcessStartInfo("wrk")
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        foreach (string argument in new[]
        {
            "-t", threads.ToString(CultureInfo.InvariantCulture),
            "-c", connections.ToString(CultureInfo.InvariantCulture),
            "-d", $"{Math.Max(1, (int)duration.TotalSeconds)}s",
            "--timeout", "10s",
            "-s", Path.Combine(HttpDirectory, "lua", script),
        })
        {
            start.ArgumentList.Add(argument);
        }

        foreach (string header in headers)
        {
            start.ArgumentList.Add("-H");
            start.ArgumentList.Add(header);
        }

        start.ArgumentList.Add(url.ToString());
        start.ArgumentList.Add("--");

        foreach (string argument in scriptArguments)
            start.ArgumentList.Add(argument);

        using Process process = Process.Start(start) ?? throw new InvalidOperationException("Could not start wrk.");
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        string text = await output;
        string line = text.Split('\n').FirstOrDefault(l => l.StartsWith("WRK_RESULT ", StringComparison.Ordinal))
            ?? throw new InvalidOperationException($"wrk exited with {process.ExitCode} and no result:\n{text}\n{await errors}");
        return Parse(line);
    }

    private static WrkResult Parse(string line)
    {
        var values = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (string pair in line["WRK_RESULT ".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            int equals = pair.IndexOf('=', StringComparison.Ordinal);
            values[pair[..equals]] = double.Parse(pair[(equals + 1)..], CultureInfo.InvariantCulture);
        }

        long errors = (long)(values["connect"] + values["read"] + values["write"] + values["status"] + values["timeout"]);
        return new WrkResult(
            (long)values["requests"],
            TimeSpan.FromMicroseconds(values["duration_us"]),
            errors,
            values["p50_us"] / 1000,
            values["p90_us"] / 1000,
            values["p99_us"] / 1000,
            values["max_us"] / 1000);
    }

    private static string FindHttpDirectory()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            string candidate = Path.Combine(directory.FullName, "tests", "Benchmarks", "Http");
            if (File.Exists(Path.Combine(candidate, "lua", "report.lua")))
                return candidate;
        }

        throw new InvalidOperationException($"tests/Benchmarks/Http not found above {AppContext.BaseDirectory}.");
    }
}
