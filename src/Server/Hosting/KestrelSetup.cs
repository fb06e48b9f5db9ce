using System.Net;
using System.Security.Cryptography.X509Certificates;
using Folio.Server.Configuration;
using Folio.Server.Security;
using Folio.Server.Subscriptions.Tcp;
using Microsoft.AspNetCore.Connections;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Folio.Server.Hosting;

/// <summary>Applies <see cref="ServerOptions"/> to Kestrel: its limits, and its two listeners (HTTP and the subscriptions' TCP).</summary>
internal static class KestrelSetup
{
    /// <summary>Sets the limits (<see cref="ApplyLimits"/>) and the two listeners.</summary>
    /// <param name="kestrel">Kestrel's options.</param>
    /// <param name="options">Folio's options.</param>
    /// <param name="endpoints">Receives the two listeners, whose ports are known once the server started.</param>
    /// <param name="certificate">The server certificate when TLS is configured: both listeners then speak TLS.</param>
    public static void Apply(KestrelServerOptions kestrel, ServerOptions options, ListenEndpoints endpoints, X509Certificate2? certificate = null)
    {
        ApplyLimits(kestrel, options);

        // Both listeners on the HTTP address's interface, so the TCP API is exactly as reachable as the REST one.
        var url = new Uri(options.ServerUrl);
        IPAddress address = ListenAddress(url.Host) ?? throw new InvalidOperationException($"ServerUrl's host '{url.Host}' is not an IP address, localhost or *.");
        kestrel.Listen(address, url.Port, listen =>
        {
            if (certificate is not null)
                listen.UseHttps(https => ServerCertificate.Configure(https, certificate));
            endpoints.Http = listen;
        });
        kestrel.Listen(address, options.TcpPort, listen =>
        {
            if (certificate is not null)
                listen.UseHttps(https => ServerCertificate.Configure(https, certificate));
            listen.UseConnectionHandler<SubscriptionConnectionHandler>();
            endpoints.Tcp = listen;
        });
    }

    /// <summary>
    /// Sets connection, header, body and data-rate limits; routes that need a bigger body (bulk insert) lift it per request.
    /// Kestrel's body limit is a backstop above Folio's own (<see cref="ServerOptions.MaxRequestBodySizeBytes"/>, which the
    /// handlers enforce): a body Kestrel refused can no longer be read, and Folio drains a refused body before answering.
    /// </summary>
    /// <param name="kestrel">Kestrel's options.</param>
    /// <param name="options">Folio's options.</param>
    public static void ApplyLimits(KestrelServerOptions kestrel, ServerOptions options)
    {
        kestrel.AddServerHeader = false;
        KestrelServerLimits limits = kestrel.Limits;
        limits.MaxRequestHeadersTotalSize = options.MaxRequestHeadersTotalSizeBytes;
        limits.MaxRequestHeaderCount = options.MaxRequestHeaderCount;
        limits.MaxRequestLineSize = options.MaxRequestLineSizeBytes;
        limits.RequestHeadersTimeout = options.RequestHeadersTimeout;
        limits.MaxRequestBodySize = options.MaxRequestBodySizeBytes + options.RequestBodyDrainBytes;
        limits.KeepAliveTimeout = options.KeepAliveTimeout;
        limits.MaxConcurrentConnections = options.MaxConcurrentConnections > 0 ? options.MaxConcurrentConnections : null;
        limits.MinRequestBodyDataRate = Rate(options.MinRequestBodyBytesPerSecond, options.MinDataRateGracePeriod);
        limits.MinResponseDataRate = Rate(options.MinResponseBytesPerSecond, options.MinDataRateGracePeriod);
    }

    /// <summary>The address a ServerUrl host means: an IP literal, <c>localhost</c> (IPv4 loopback), or <c>*</c>/<c>+</c> (every interface); null otherwise.</summary>
    public static IPAddress? ListenAddress(string host) => host switch
    {
        "localhost" => IPAddress.Loopback,
        "*" or "+" => IPAddress.Any,
        _ => IPAddress.TryParse(host.Trim('[', ']'), out IPAddress? parsed) ? parsed : null,
    };

    private static MinDataRate? Rate(double bytesPerSecond, TimeSpan gracePeriod) =>
        bytesPerSecond <= 0 ? null : new MinDataRate(bytesPerSecond, gracePeriod);
}
