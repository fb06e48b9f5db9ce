using Folio.Server.Configuration;
using Microsoft.Extensions.Configuration;

namespace Folio.Server.Hosting;

/// <summary>
/// <c>Folio.Server probe [url]</c>: asks a running server's readiness endpoint and exits 0 when it answers 200, 1
/// otherwise. Container images have no curl; the server binary is the probe, so a HEALTHCHECK needs nothing else.
/// </summary>
public static class HealthProbe
{
    /// <summary>The first command-line argument that selects the probe instead of serving.</summary>
    public const string Command = "probe";

    /// <summary>Runs the probe.</summary>
    /// <param name="args">The arguments after <see cref="Command"/>: an optional absolute URL to ask; without one, the readiness endpoint of the configured <see cref="ServerOptions.ServerUrl"/>.</param>
    /// <param name="output">Where the outcome is written, one line.</param>
    /// <returns>0 when the server answered 200, 1 when it answered anything else or could not be reached, 2 for bad arguments.</returns>
    public static async Task<int> RunAsync(string[] args, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(output);
        Uri? target = args.Length > 0 && !args[0].StartsWith("--", StringComparison.Ordinal)
            ? ParseUrl(args[0])
            : ReadinessOf(args);
        if (target is null)
        {
            await output.WriteLineAsync("usage: Folio.Server probe [http://host:port/healthz/ready]");
            return 2;
        }

        using var handler = new SocketsHttpHandler { UseProxy = false };
        if (target.IsLoopback)
        {
            // A probe beside the server checks that it answers, not who it is: a self-signed certificate is fine there.
            handler.SslOptions.RemoteCertificateValidationCallback = static (_, _, _, _) => true;
        }

        using var client = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(5) };
        try
        {
            using HttpResponseMessage response = await client.GetAsync(target);
            await output.WriteLineAsync($"{target} answered {(int)response.StatusCode}");
            return response.IsSuccessStatusCode ? 0 : 1;
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException)
        {
            await output.WriteLineAsync($"{target} did not answer: {ex.Message}");
            return 1;
        }
    }

    private static Uri? ParseUrl(string text) =>
        Uri.TryCreate(text, UriKind.Absolute, out Uri? url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps) ? url : null;

    /// <summary>The configured listen address with a wildcard host replaced by loopback, since a probe runs beside the server.</summary>
    private static Uri? ReadinessOf(string[] args)
    {
        var builder = new ConfigurationBuilder();
        ServerConfiguration.AddSources(builder, args, AppContext.BaseDirectory);
        string serverUrl = builder.Build()["ServerUrl"] ?? ServerOptions.DefaultServerUrl;
        if (!Uri.TryCreate(serverUrl, UriKind.Absolute, out Uri? listen))
            return null;
        string host = listen.Host is "0.0.0.0" or "[::]" or "::" or "*" or "+" ? "127.0.0.1" : listen.Host;
        return ParseUrl($"{listen.Scheme}://{host}:{listen.Port}/healthz/ready");
    }
}
