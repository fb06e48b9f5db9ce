using System.Diagnostics;

namespace Folio.Benchmarks.Search;

/// <summary>
/// Folio's engine runs inside src/Server, which uses Server GC with DATAS off (Folio.Server.csproj), so an in-process
/// engine benchmark measures it under the same collector: the command starts itself again with those settings unless
/// this process has them already.
/// </summary>
internal static class ServerCollector
{
    /// <summary>Whether this process runs with the server's collector settings.</summary>
    public static bool IsActive => System.Runtime.GCSettings.IsServerGC;

    /// <summary>How the report names this process's collector.</summary>
    public static string Describe() =>
        $"{(System.Runtime.GCSettings.IsServerGC ? "Server GC" : "workstation GC")}, DATAS {(Environment.GetEnvironmentVariable("DOTNET_GCDynamicAdaptationMode") == "0" ? "off" : "as configured")}";

    /// <summary>Runs <paramref name="command"/> with <paramref name="args"/> again in a child process with the server's collector settings; returns its exit code.</summary>
    public static int Relaunch(string command, string[] args)
    {
        var host = Environment.ProcessPath ?? throw new InvalidOperationException("The benchmark host's path is unknown.");
        var info = new ProcessStartInfo(host) { UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(host) == "dotnet")
            info.ArgumentList.Add(typeof(ServerCollector).Assembly.Location);
        info.ArgumentList.Add(command);
        foreach (var arg in args)
            info.ArgumentList.Add(arg);
        info.Environment["DOTNET_gcServer"] = "1";
        info.Environment["DOTNET_GCDynamicAdaptationMode"] = "0";
        using var child = Process.Start(info) ?? throw new InvalidOperationException($"Could not start {host}.");
        child.WaitForExit();
        return child.ExitCode;
    }
}
