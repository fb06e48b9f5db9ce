using System.Diagnostics;

namespace Folio.Server.Tests.Packaging;

/// <summary>
/// A fact skipped, with the reason shown, unless <c>docker info</c> reaches a running engine and the Dockerfile's base
/// images can be had (already pulled, or their registry resolves): an engine without a way to its base images cannot
/// build the image either.
/// </summary>
public sealed class DockerEngineFactAttribute : FactAttribute
{
    /// <summary>The environment setting a test container needs to serve off loopback without credentials.</summary>
    public const string UnsecuredSetting = "FOLIO_Security__AllowUnsecuredNetworkAccess=true";

    private const string Registry = "mcr.microsoft.com";
    private const string BaseImage = Registry + "/dotnet/aspnet:10.0";

    public DockerEngineFactAttribute()
    {
        string? reason = EngineMissing();
        if (reason is not null)
            Skip = reason;
    }

    private static string? EngineMissing()
    {
        try
        {
            var start = new ProcessStartInfo("docker", "info") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
            using Process process = Process.Start(start)!;
            string errors = process.StandardError.ReadToEnd();
            process.StandardOutput.ReadToEnd();
            if (!process.WaitForExit(15_000))
            {
                process.Kill();
                return "'docker info' did not answer in 15 s, so the image cannot be built here.";
            }

            if (process.ExitCode != 0)
                return $"No Docker engine runs here ('docker info': {errors.Trim()}), so the image cannot be built; DockerfileTests check it by publishing and starting what it copies.";
            return BaseImagesUnreachable();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "'docker' is not on PATH, so the image cannot be built here.";
        }
    }

    private static string? BaseImagesUnreachable()
    {
        var inspect = new ProcessStartInfo("docker", ["image", "inspect", BaseImage]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        using (Process process = Process.Start(inspect)!)
        {
            process.StandardOutput.ReadToEnd();
            process.StandardError.ReadToEnd();
            if (process.WaitForExit(15_000) && process.ExitCode == 0)
                return null;
        }

        try
        {
            System.Net.Dns.GetHostAddressesAsync(Registry).WaitAsync(TimeSpan.FromSeconds(10)).GetAwaiter().GetResult();
            return null;
        }
        catch (Exception ex) when (ex is System.Net.Sockets.SocketException or TimeoutException)
        {
            return $"A Docker engine runs, but {BaseImage} is not pulled and {Registry} does not resolve ({ex.Message}), so the image cannot be built here; DockerfileTests check it by publishing and starting what it copies.";
        }
    }
}
