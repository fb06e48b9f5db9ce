using System.Linq.Expressions;
using System.Text;
using Folio.Client.Linq;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>Loading by id, with includes.</summary>
internal sealed partial class AsyncDocumentSession
{
    public async Task<T?> LoadAsync<T>(string id, CancellationToken cancellationToken = default) where T : class
    {
        ArgumentException.ThrowIfNullOrEmpty(id);
        if (TryLoadKnown(id, typeof(T), out object? known))
            return (T?)known;
        await LoadFromServerAsync([id], [], cancellationToken).ConfigureAwait(false);
        TryLoadKnown(id, typeof(T), out known);
        return (T?)known;
    }

    public Task<Dictionary<string, T?>> LoadAsync<T>(IEnumerable<string> ids, CancellationToken cancellationToken = default) where T : class =>
        LoadManyAsync<T>(ids, [], cancellationToken);

    internal async Task<Dictionary<string, T?>> LoadManyAsync<T>(IEnumerable<string> ids, List<string> includes, CancellationToken cancellationToken) where T : class
    {
        var answer = new Dictionary<string, T?>(StringComparer.OrdinalIgnoreCase);
        var missing = new List<string>();
        foreach (string id in ids)
        {
            ArgumentException.ThrowIfNullOrEmpty(id);
            if (answer.ContainsKey(id))
                continue;
            answer[id] = null;
            // With includes, ask the server even for tracked documents: their referred documents are wanted too.
            if (includes.Count > 0 || !TryLoadKnown(id, typeof(T), out _))
                missing.Add(id);
        }
        if (missing.Count > 0)
            await LoadFromServerAsync(missing, includes, cancellationToken).ConfigureAwait(false);
        foreach (string id in new List<string>(answer.Keys))
        {
            TryLoadKnown(id, typeof(T), out object? entity);
            answer[id] = (T?)entity;
        }
        return answer;
    }

    public ILoaderWithInclude<T> Include<T>(Expression<Func<T, object?>> path) where T : class =>
        new LoaderWithInclude<T>(this).Include(path);

    public ILoaderWithInclude<object> Include(string path) => new LoaderWithInclude<object>(this).Include(path);

    /// <summary>Answers from the identity map or the included documents, without a request, when the session knows the id.</summary>
    private bool TryLoadKnown(string id, Type type, out object? entity)
    {
        if (_deletes.ContainsKey(id))
        {
            entity = null;
            return true;
        }
        if (_byId.TryGetValue(id, out DocumentInfo? info))
        {
            entity = info.Entity;
            return true;
        }
        if (_included.TryGetValue(id, out JObject? document))
        {
            if (document is not null)
            {
                _included.Remove(id);
                entity = TrackDocument(document, type);
            }
            else
            {
                entity = null;
            }
            return true;
        }
        entity = null;
        return false;
    }

    private async Task LoadFromServerAsync(List<string> ids, List<string> includes, CancellationToken cancellationToken)
    {
        IncrementRequestCount();
        var path = new StringBuilder(DatabasePath("docs"));
        char separator = '?';
        foreach (string id in ids)
        {
            path.Append(separator).Append("id=").Append(Uri.EscapeDataString(id));
            separator = '&';
        }
        foreach (string include in includes)
            path.Append("&include=").Append(Uri.EscapeDataString(include));
        string relative = path.ToString();

        JObject? answer = await Executor.SendForJsonAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, relative)), null, cancellationToken, notFoundIsNull: true).ConfigureAwait(false);
        if (answer is null)
        {
            // One id asked and the server has none.
            _included[ids[0]] = null;
            return;
        }
        AddIncludes(answer["Includes"] as JObject);
        if (answer["Results"] is JArray results)
        {
            for (int i = 0; i < results.Count && i < ids.Count; i++)
            {
                if (_byId.ContainsKey(ids[i]))
                    continue;
                // Documents become entities when asked for, with the type asked for; until then they wait with the includes.
                _included[ids[i]] = results[i] as JObject;
            }
        }
    }

    /// <summary>Keeps included documents so loading them later needs no request (tracked ones stay as they are).</summary>
    internal void AddIncludes(JObject? includes)
    {
        if (includes is null)
            return;
        foreach (KeyValuePair<string, JToken?> include in includes)
        {
            if (!_byId.ContainsKey(include.Key) && include.Value is JObject document)
                _included[include.Key] = document;
        }
    }

    internal static string IncludePath(LambdaExpression path) => ExpressionPaths.MemberPath(path.Body);
}
