namespace Folio.Studio.Tests.Support;

/// <summary>Where the browser the tests drive is, and how it is started.</summary>
public static class Chromium
{
    /// <summary>The Debian package's binary, or the one FOLIO_CHROMIUM names.</summary>
    public static string ExecutablePath =>
        Environment.GetEnvironmentVariable("FOLIO_CHROMIUM") is { Length: > 0 } path ? path : "/usr/bin/chromium";

    /// <summary>Why the browser tests cannot run here, or null when they can.</summary>
    public static string? MissingReason =>
        File.Exists(ExecutablePath)
            ? null
            : $"{ExecutablePath} is missing: install Debian's chromium (apt-get install -y chromium, as .ci/run does) or set FOLIO_CHROMIUM.";

    /// <summary>
    /// Headless with no sandbox (tests run as root), no GPU, and nothing that reaches out to the network:
    /// the machine's network is closed, and the studio must work offline anyway.
    /// </summary>
    public static readonly string[] Arguments =
    [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ];
}
