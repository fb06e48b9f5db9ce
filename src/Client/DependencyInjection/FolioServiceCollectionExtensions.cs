using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Folio.Client.DependencyInjection;

/// <summary>Registers Folio with Microsoft.Extensions.DependencyInjection.</summary>
public static class FolioServiceCollectionExtensions
{
    /// <summary>
    /// Registers one <see cref="IDocumentStore"/> for the application (a singleton, initialized on first use and
    /// disposed with the container), configured by <paramref name="configure"/> and any other
    /// <c>Configure&lt;FolioOptions&gt;</c> (e.g. bound from configuration).
    /// </summary>
    public static IServiceCollection AddFolio(this IServiceCollection services, Action<FolioOptions>? configure = null)
    {
        ArgumentNullException.ThrowIfNull(services);
        services.AddOptions<FolioOptions>();
        if (configure is not null)
            services.Configure(configure);
        services.AddSingleton<IDocumentStore>(provider =>
        {
            FolioOptions options = provider.GetRequiredService<IOptions<FolioOptions>>().Value;
            var store = new DocumentStore
            {
                Urls = options.Urls,
                Database = options.Database,
                TcpPort = options.TcpPort,
                RequestTimeout = options.RequestTimeout,
                ApiKey = options.ApiKey,
            };
            options.Tls?.Invoke(store.Tls);
            options.Conventions?.Invoke(store.Conventions);
            return store.Initialize();
        });
        return services;
    }
}
