using System.Diagnostics;

namespace Folio.Server.Tests.Support;

/// <summary>Runs a program the tests need (dotnet publish, docker, mount, a script interpreter) and collects what it prints.</summary>
public static class ExternalProcess
{
    /// <summary>Starts <paramref name="file"/> with its output redirected; loopback stays off any proxy the machine configures.</summary>
    public static Process Start(string file, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string arg in args)
            start.ArgumentList.Add(arg);
        if (environment is not null)
        {
            foreach ((string key, string value) in environment)
                start.Environment[key] = value;
        }

        start.Environment["NO_PROXY"] = "127.0.0.1,localhost";
        start.Environment["no_proxy"] = "127.0.0.1,localhost";
        return Process.Start(start)!;
    }

    /// <summary>
    /// Runs to the end and answers its exit code with its output (standard output, then standard error), both read while
    /// it runs so a chatty program never blocks on a full pipe; killed, and <see cref="TimeoutException"/>, past the timeout.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunAsync(string file, IEnumerable<string> args, TimeSpan timeout, IReadOnlyDictionary<string, string>? environment = null)
    {
        using Process process = Start(file, args, environment);
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            throw;
        }

        return (process.ExitCode, await output, await errors);
    }
}
