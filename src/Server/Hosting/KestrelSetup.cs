using Folio.Server.Configuration;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Folio.Server.Hosting;

/// <summary>Applies <see cref="ServerOptions"/> to Kestrel's limits.</summary>
internal static class KestrelSetup
{
    /// <summary>Sets header, body and data-rate limits; routes that need a bigger body (bulk insert) lift it per request.</summary>
    /// <param name="kestrel">Kestrel's options.</param>
    /// <param name="options">Folio's options.</param>
    public static void Apply(KestrelServerOptions kestrel, ServerOptions options)
    {
        kestrel.AddServerHeader = false;
        KestrelServerLimits limits = kestrel.Limits;
        limits.MaxRequestHeadersTotalSize = options.MaxRequestHeadersTotalSizeBytes;
        limits.MaxRequestHeaderCount = options.MaxRequestHeaderCount;
        limits.MaxRequestLineSize = options.MaxRequestLineSizeBytes;
        limits.RequestHeadersTimeout = options.RequestHeadersTimeout;
        limits.MaxRequestBodySize = options.MaxRequestBodySizeBytes;
        limits.MinRequestBodyDataRate = Rate(options.MinRequestBodyBytesPerSecond, options.MinDataRateGracePeriod);
        limits.MinResponseDataRate = Rate(options.MinResponseBytesPerSecond, options.MinDataRateGracePeriod);
    }

    private static MinDataRate? Rate(double bytesPerSecond, TimeSpan gracePeriod) =>
        bytesPerSecond <= 0 ? null : new MinDataRate(bytesPerSecond, gracePeriod);
}
