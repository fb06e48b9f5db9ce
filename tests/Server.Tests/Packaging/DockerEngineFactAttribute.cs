using System.Diagnostics;

namespace Folio.Server.Tests.Packaging;

/// <summary>A fact skipped, with the reason shown, unless <c>docker info</c> reaches a running engine.</summary>
public sealed class DockerEngineFactAttribute : FactAttribute
{
    /// <summary>The environment setting a test container needs to serve off loopback without credentials.</summary>
    public const string UnsecuredSetting = "FOLIO_Security__UnsecuredAccessAllowed=true";

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

            return process.ExitCode == 0 ? null : $"No Docker engine runs here ('docker info': {errors.Trim()}), so the image cannot be built; DockerfileTests check it by publishing and starting what it copies.";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "'docker' is not on PATH, so the image cannot be built here.";
        }
    }
}
