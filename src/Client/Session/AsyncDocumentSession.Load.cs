using System.Linq.Expressions;
using System.Text;
using Folio.Client.Linq;
using Newtonsoft.Json;
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
        await LoadFromServerAsync([id], [], typeof(T), cancellationToken).ConfigureAwait(false);
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
            await LoadFromServerAsync(missing, includes, typeof(T), cancellationToken).ConfigureAwait(false);
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

    private async Task LoadFromServerAsync(List<string> ids, List<string> includes, Type? type, CancellationToken cancellationToken)
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

        string? text = await Executor.SendForTextAsync(url => new HttpRequestMessage(HttpMethod.Get, new Uri(url, relative)), cancellationToken).ConfigureAwait(false);
        if (text is null)
        {
            // One id asked and the server has none.
            _included[ids[0]] = null;
            return;
        }
        if (type is not null && !text.Contains('\n', StringComparison.Ordinal))
        {
            ReadLoadAnswer(text, ids, type);
            return;
        }
        JObject answer = JObject.Parse(text);
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

    /// <summary>
    /// Reads a load answer (<c>{"Results":[…],"Includes":{…}}</c> on one line, as the server writes it) straight into
    /// entities of <paramref name="type"/>, without building a JSON tree of the documents: each document's text is kept
    /// instead, and parsed only if change tracking or its metadata needs it.
    /// </summary>
    private void ReadLoadAnswer(string text, List<string> ids, Type type)
    {
        using var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None };
        reader.Read();
        while (reader.Read() && reader.TokenType == JsonToken.PropertyName)
        {
            string name = (string)reader.Value!;
            reader.Read();
            if (name == "Results" && reader.TokenType == JsonToken.StartArray)
            {
                int index = 0;
                while (reader.Read() && reader.TokenType != JsonToken.EndArray)
                {
                    string asked = ids[index++];
                    if (reader.TokenType == JsonToken.Null)
                    {
                        _included[asked] = null;
                        continue;
                    }
                    if (_byId.ContainsKey(asked) || _deletes.ContainsKey(asked))
                    {
                        reader.Skip();
                        continue;
                    }
                    // On one line, the reader's position is the character offset: '{' was just read.
                    int start = reader.LinePosition - 1;
                    object entity = Serializer.Deserialize(reader, type)!;
                    string document = text.Substring(start, reader.LinePosition - start);
                    TrackLoaded(entity, document, type);
                }
            }
            else if (name == "Includes" && reader.TokenType == JsonToken.StartObject)
            {
                AddIncludes(JObject.Load(reader));
            }
            else
            {
                reader.Skip();
            }
        }
    }

    /// <summary>Tracks an entity read from a document's text; its metadata is the document's last property, as the server writes it.</summary>
    private void TrackLoaded(object entity, string document, Type type)
    {
        JObject metadata = ReadMetadata(document);
        string id = (string)metadata["@id"]!;
        Conventions.SetId(entity, id);
        Track(new DocumentInfo(entity, id, (string?)metadata["@collection"] ?? Conventions.GetCollectionName(type))
        {
            ChangeVector = (string?)metadata["@change-vector"],
            Metadata = metadata,
            ServerText = document,
        });
    }

    private static JObject ReadMetadata(string document)
    {
        const string Property = "\"@metadata\":";
        int at = document.LastIndexOf(Property, StringComparison.Ordinal);
        if (at > 0)
        {
            try
            {
                return JObject.Parse(document.Substring(at + Property.Length, document.Length - 1 - (at + Property.Length)));
            }
            catch (JsonReaderException)
            {
                // "@metadata" inside a string value after the real one: read the document whole.
            }
        }
        return (JObject)JObject.Parse(document)["@metadata"]!;
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
