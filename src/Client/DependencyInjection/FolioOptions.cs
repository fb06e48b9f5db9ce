using Folio.Client.Conventions;
using Folio.Client.Security;

namespace Folio.Client.DependencyInjection;

/// <summary>The settings of the <see cref="IDocumentStore"/> that <c>services.AddFolio(options)</c> registers.</summary>
public sealed class FolioOptions
{
    /// <summary>The servers' base urls.</summary>
    public string[] Urls { get; set; } = [];

    /// <summary>The default database.</summary>
    public string? Database { get; set; }

    /// <summary>The port of the server's TCP listener for subscriptions.</summary>
    public int TcpPort { get; set; } = 38888;

    /// <summary>How long one HTTP request may take.</summary>
    public TimeSpan RequestTimeout { get; set; } = TimeSpan.FromSeconds(100);

    /// <summary>The API key sent to a server that requires authentication (<see cref="DocumentStore.ApiKey"/>); null sends none.</summary>
    public string? ApiKey { get; set; }

    /// <summary>Changes to the store's TLS options (<see cref="DocumentStore.Tls"/>), applied before it is initialized.</summary>
    public Action<TlsOptions>? Tls { get; set; }

    /// <summary>Changes to the store's conventions, applied before it is initialized.</summary>
    public Action<DocumentConventions>? Conventions { get; set; }
}
