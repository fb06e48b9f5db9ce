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
        };
        var kestrel = new KestrelServerOptions();

        KestrelSetup.ApplyLimits(kestrel, options);

        Assert.Equal(1024, kestrel.Limits.MaxRequestBodySize);
        Assert.Equal(5000, kestrel.Limits.MaxRequestHeadersTotalSize);
        Assert.Equal(7, kestrel.Limits.MaxRequestHeaderCount);
        Assert.Equal(3000, kestrel.Limits.MaxRequestLineSize);
        Assert.Equal(100, kestrel.Limits.MinRequestBodyDataRate!.BytesPerSecond);
        Assert.Equal(TimeSpan.FromSeconds(3), kestrel.Limits.MinRequestBodyDataRate.GracePeriod);
        Assert.Null(kestrel.Limits.MinResponseDataRate);
        Assert.False(kestrel.AddServerHeader);
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
