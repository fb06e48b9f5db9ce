using Folio.Client.Exceptions;
using Folio.Client.Http;
using Folio.Client.Indexes;
using Newtonsoft.Json.Linq;

namespace Folio.Client;

/// <summary>Operations on databases and indexes (administration rather than units of work).</summary>
public sealed class MaintenanceOperations
{
    private readonly DocumentStore _store;

    internal MaintenanceOperations(DocumentStore store)
    {
        _store = store;
    }

    /// <summary>Creates a database; when it exists already, does nothing if <paramref name="ignoreIfExists"/>, else throws.</summary>
    public async Task CreateDatabaseAsync(string name, bool ignoreIfExists = false, CancellationToken cancellationToken = default)
    {
        var body = new JObject { ["Name"] = name };
        try
        {
            await _store.Executor.SendForJsonAsync(
                url => new HttpRequestMessage(HttpMethod.Put, new Uri(url, "admin/databases")) { Content = RequestExecutor.JsonContent(body) },
                null, cancellationToken).ConfigureAwait(false);
        }
        catch (FolioException e) when (ignoreIfExists && e.ProblemType == ProblemTypes.DatabaseExists)
        {
        }
    }

    /// <summary>Deletes a database and its files.</summary>
    public Task DeleteDatabaseAsync(string name, CancellationToken cancellationToken = default) =>
        _store.Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Delete, new Uri(url, new UrlBuilder("admin/databases").Add("name", name).ToString())),
            null, cancellationToken);

    /// <summary>Creates or updates indexes of <paramref name="database"/> (the store's database when null).</summary>
    public async Task PutIndexesAsync(IReadOnlyList<IndexDefinition> indexes, string? database = null, CancellationToken cancellationToken = default)
    {
        var array = new JArray();
        foreach (IndexDefinition index in indexes)
            array.Add(index.ToJson());
        var body = new JObject { ["Indexes"] = array };
        string path = UrlBuilder.ForDatabase(_store.DatabaseOrDefault(database), "indexes").ToString();
        await _store.Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Put, new Uri(url, path)) { Content = RequestExecutor.JsonContent(body) },
            null, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Per index of <paramref name="database"/>: its name, whether it is stale and how far it has indexed.</summary>
    public async Task<IReadOnlyList<IndexStatus>> GetIndexStatusesAsync(string? database = null, CancellationToken cancellationToken = default)
    {
        string path = UrlBuilder.ForDatabase(_store.DatabaseOrDefault(database), "indexes/stats").ToString();
        JObject? answer = await _store.Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, path)), null, cancellationToken).ConfigureAwait(false);
        var statuses = new List<IndexStatus>();
        if (answer?["Results"] is JArray results)
        {
            foreach (JToken result in results)
                statuses.Add(new IndexStatus((string)result["Name"]!, (bool)result["IsStale"]!, (long)result["ProcessedEtag"]!, (long)result["LastDocEtag"]!));
        }
        return statuses;
    }
}
