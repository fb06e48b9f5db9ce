using Folio.Client.Http;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Subscriptions;

/// <summary>Data subscriptions of a store's databases: defined over REST, consumed by workers over TCP (docs/tcp-protocol.md).</summary>
public sealed class DocumentSubscriptions
{
    private readonly DocumentStore _store;

    internal DocumentSubscriptions(DocumentStore store)
    {
        _store = store;
    }

    /// <summary>Creates a subscription; answers its name.</summary>
    public async Task<string> CreateAsync(SubscriptionCreationOptions options, string? database = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        var body = new JObject { ["Name"] = options.Name, ["Query"] = options.Query };
        body["StartFrom"] = long.TryParse(options.StartFrom, out long etag) ? new JValue(etag) : new JValue(options.StartFrom);
        string path = Path(database);
        await Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Put, new Uri(url, path)) { Content = RequestExecutor.JsonContent(body) }, null, cancellationToken).ConfigureAwait(false);
        return options.Name;
    }

    /// <summary>A subscription's state; null when there is none of that name.</summary>
    public async Task<SubscriptionState?> GetAsync(string name, string? database = null, CancellationToken cancellationToken = default)
    {
        string path = new UrlBuilder(Path(database)).Add("name", name).ToString();
        try
        {
            JObject? answer = await Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, path)), null, cancellationToken).ConfigureAwait(false);
            return answer?.ToObject<SubscriptionState>();
        }
        catch (Exceptions.FolioException e) when (e.Status == System.Net.HttpStatusCode.NotFound && e.ProblemType == ProblemTypes.SubscriptionNotFound)
        {
            return null;
        }
    }

    /// <summary>Every subscription of the database.</summary>
    public async Task<List<SubscriptionState>> GetAllAsync(string? database = null, CancellationToken cancellationToken = default)
    {
        string path = Path(database);
        JObject? answer = await Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, path)), null, cancellationToken).ConfigureAwait(false);
        return answer?["Results"]?.ToObject<List<SubscriptionState>>() ?? [];
    }

    /// <summary>Deletes a subscription; its worker is told and disconnected.</summary>
    public Task DeleteAsync(string name, string? database = null, CancellationToken cancellationToken = default)
    {
        string path = new UrlBuilder(Path(database)).Add("name", name).ToString();
        return Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Delete, new Uri(url, path)), null, cancellationToken);
    }

    /// <summary>A worker for the subscription; call <see cref="SubscriptionWorker{T}.RunAsync"/> with a batch handler.</summary>
    public SubscriptionWorker<T> GetSubscriptionWorker<T>(SubscriptionWorkerOptions options, string? database = null) where T : class =>
        new(_store, _store.DatabaseOrDefault(database), options);

    /// <summary>A worker for the subscription <paramref name="name"/> with the default options.</summary>
    public SubscriptionWorker<T> GetSubscriptionWorker<T>(string name, string? database = null) where T : class =>
        GetSubscriptionWorker<T>(new SubscriptionWorkerOptions { SubscriptionName = name }, database);

    private RequestExecutor Executor
    {
        get
        {
            _store.Initialize();
            return _store.Executor;
        }
    }

    private string Path(string? database) => UrlBuilder.ForDatabase(_store.DatabaseOrDefault(database), "subscriptions").ToString();
}
