using Folio.Server.Configuration;
using Folio.Server.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Folio.Server.Tests.Hosting;

public class KestrelSetupTests
{
    [Fact]
    public void Apply_CopiesLimits_WhenOptionsSet()
    {
        var options = new ServerOptions
        {
            MaxDocumentSizeBytes = 1000,
            RequestBodyMarginBytes = 24,
            MaxRequestHeadersTotalSizeBytes = 5000,
            MaxRequestHeaderCount = 7,
            MaxRequestLineSizeBytes = 3000,
            MinRequestBodyBytesPerSecond = 100,
            MinResponseBytesPerSecond = 0,
            MinDataRateGracePeriod = TimeSpan.FromSeconds(3),
            RequestBodyDrainBytes = 4096,
            KeepAliveTimeout = TimeSpan.FromSeconds(7),
            MaxConcurrentConnections = 500,
        };
        var kestrel = new KestrelServerOptions();

        KestrelSetup.ApplyLimits(kestrel, options);

        // Folio's own limit is 1024; Kestrel's backstop leaves room to drain a refused body.
        Assert.Equal(1024 + 4096, kestrel.Limits.MaxRequestBodySize);
        Assert.Equal(TimeSpan.FromSeconds(7), kestrel.Limits.KeepAliveTimeout);
        Assert.Equal(500, kestrel.Limits.MaxConcurrentConnections);
        Assert.Equal(5000, kestrel.Limits.MaxRequestHeadersTotalSize);
        Assert.Equal(7, kestrel.Limits.MaxRequestHeaderCount);
        Assert.Equal(3000, kestrel.Limits.MaxRequestLineSize);
        Assert.Equal(100, kestrel.Limits.MinRequestBodyDataRate!.BytesPerSecond);
        Assert.Equal(TimeSpan.FromSeconds(3), kestrel.Limits.MinRequestBodyDataRate.GracePeriod);
        Assert.Null(kestrel.Limits.MinResponseDataRate);
        Assert.False(kestrel.AddServerHeader);
    }

    [Fact]
    public void Apply_SetsNoConnectionCap_WhenMaxConcurrentConnectionsIsZero()
    {
        var kestrel = new KestrelServerOptions();

        KestrelSetup.ApplyLimits(kestrel, new ServerOptions());

        Assert.Null(kestrel.Limits.MaxConcurrentConnections);
        Assert.Equal(TimeSpan.FromSeconds(130), kestrel.Limits.KeepAliveTimeout);
    }

    [Theory]
    [InlineData("127.0.0.1", "127.0.0.1")]
    [InlineData("localhost", "127.0.0.1")]
    [InlineData("*", "0.0.0.0")]
    [InlineData("+", "0.0.0.0")]
    [InlineData("[::1]", "::1")]
    public void ListenAddress_ReadsTheHostsServerUrlAllows(string host, string address)
    {
        Assert.Equal(System.Net.IPAddress.Parse(address), KestrelSetup.ListenAddress(host));
    }

    [Fact]
    public void ListenAddress_RefusesAHostName()
    {
        Assert.Null(KestrelSetup.ListenAddress("example.com"));
    }
}
