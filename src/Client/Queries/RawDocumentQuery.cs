using Folio.Client.Linq;
using Folio.Client.Session;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Queries;

/// <summary>A session's raw RQL query.</summary>
internal sealed class RawDocumentQuery<T> : IRawDocumentQuery<T>
{
    private readonly AsyncDocumentSession _session;
    private readonly string _query;
    private readonly Dictionary<string, JToken> _parameters = [];
    private readonly QueryCustomization _customization = new();
    private QueryStatistics? _statistics;

    public RawDocumentQuery(AsyncDocumentSession session, string query)
    {
        _session = session;
        _query = query;
    }

    public IRawDocumentQuery<T> AddParameter(string name, object? value)
    {
        _parameters[name.TrimStart('$')] = value is null ? JValue.CreateNull() : JToken.FromObject(value, _session.Serializer);
        return this;
    }

    public IRawDocumentQuery<T> WaitForNonStaleResults(TimeSpan? timeout = null)
    {
        _customization.WaitForNonStaleResults(timeout);
        return this;
    }

    public IRawDocumentQuery<T> NoTracking()
    {
        _customization.NoTracking();
        return this;
    }

    public IRawDocumentQuery<T> Statistics(out QueryStatistics statistics)
    {
        _statistics = statistics = new QueryStatistics();
        return this;
    }

    public async Task<List<T>> ToListAsync(CancellationToken cancellationToken = default)
    {
        JArray results = await RunAsync(cancellationToken).ConfigureAwait(false);
        var list = new List<T>(results.Count);
        foreach (JToken result in results)
        {
            object? item = _customization.IsNoTracking ? _session.Untracked(result, typeof(T)) : _session.Materialize(result, typeof(T));
            if (item is not null)
                list.Add((T)item);
        }
        return list;
    }

    public async Task<T?> FirstOrDefaultAsync(CancellationToken cancellationToken = default)
    {
        List<T> results = await ToListAsync(cancellationToken).ConfigureAwait(false);
        return results.Count > 0 ? results[0] : default;
    }

    public async Task<List<FacetResult>> GetFacetsAsync(CancellationToken cancellationToken = default)
    {
        JArray results = await RunAsync(cancellationToken).ConfigureAwait(false);
        var facets = new List<FacetResult>(results.Count);
        foreach (JToken result in results)
            facets.Add(result.ToObject<FacetResult>()!);
        return facets;
    }

    private async Task<JArray> RunAsync(CancellationToken cancellationToken)
    {
        JObject answer = await _session.ExecuteQueryAsync(_query, _parameters, _customization, cancellationToken).ConfigureAwait(false);
        if (_statistics is not null)
            AsyncDocumentSession.FillStatistics(answer, _statistics);
        return (JArray)answer["Results"]!;
    }
}
