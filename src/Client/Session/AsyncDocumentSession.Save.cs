using System.Globalization;
using Folio.Client.Conventions;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>Storing, deleting, and sending the unit of work's changes in one transaction.</summary>
internal sealed partial class AsyncDocumentSession
{
    public Task StoreAsync(object entity, CancellationToken cancellationToken = default) =>
        StoreInternalAsync(entity, null, null, false, cancellationToken);

    public Task StoreAsync(object entity, string id, CancellationToken cancellationToken = default) =>
        StoreInternalAsync(entity, id, null, false, cancellationToken);

    public Task StoreAsync(object entity, string? changeVector, string id, CancellationToken cancellationToken = default) =>
        StoreInternalAsync(entity, id, changeVector, true, cancellationToken);

    private async Task StoreInternalAsync(object entity, string? id, string? changeVector, bool checkChangeVector, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(entity);
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (_byEntity.TryGetValue(entity, out DocumentInfo? tracked))
        {
            if (checkChangeVector)
                tracked.ExpectedChangeVector = changeVector;
            return;
        }
        Type type = entity.GetType();
        string collection = Conventions.GetCollectionName(type);
        id ??= Conventions.GetId(entity);
        if (id is null && Conventions.IdGeneration == IdGeneration.HiLo)
            id = await Store.HiLo.NextIdAsync(Database, collection, cancellationToken).ConfigureAwait(false);
        if (id is not null && (id.EndsWith('/') || id.EndsWith('|')))
            id = null; // the server makes it: the prefix is kept below
        string? serverPrefix = null;
        if (id is null)
        {
            string? given = Conventions.GetId(entity);
            serverPrefix = given is not null && (given.EndsWith('/') || given.EndsWith('|')) ? given : Conventions.FindIdPrefix(collection);
        }
        else
        {
            if (_byId.TryGetValue(id, out DocumentInfo? other) && !ReferenceEquals(other.Entity, entity))
                throw new InvalidOperationException($"The session already tracks another object with id '{id}'; change that one instead of storing a second.");
            Conventions.SetId(entity, id);
            _deletes.Remove(id);
            _included.Remove(id);
        }

        var info = new DocumentInfo(entity, id, collection)
        {
            ExpectedChangeVector = checkChangeVector ? changeVector : null,
            ServerIdPrefix = serverPrefix,
        };
        info.Metadata["@collection"] = collection;
        Track(info);
    }

    public void Delete<T>(T entity) where T : class
    {
        DocumentInfo info = InfoOf(entity);
        Untrack(info);
        if (info.Id is not null)
            _deletes[info.Id] = UseOptimisticConcurrency ? info.ChangeVector : null;
    }

    public void Delete(string id)
    {
        ArgumentException.ThrowIfNullOrEmpty(id);
        string? changeVector = null;
        if (_byId.TryGetValue(id, out DocumentInfo? info))
        {
            changeVector = UseOptimisticConcurrency ? info.ChangeVector : null;
            Untrack(info);
        }
        _included.Remove(id);
        _deletes[id] = changeVector;
    }

    public bool HasChanged(object entity) => ChangedJson(InfoOf(entity)) is not null;

    public bool HasChanges
    {
        get
        {
            if (_deletes.Count > 0)
                return true;
            foreach (DocumentInfo info in _tracked)
            {
                if (ChangedJson(info) is not null)
                    return true;
            }
            return false;
        }
    }

    /// <summary>The entity's JSON (without metadata) when it is new or differs from what the server has; null when unchanged.</summary>
    private string? ChangedJson(DocumentInfo info)
    {
        bool metadataChanged = info.MetadataSnapshot is not null && !JToken.DeepEquals(info.MetadataSnapshot, info.Metadata);
        if (info.ServerText is not null)
        {
            using var reader = new JsonTextReader(new StringReader(info.ServerText)) { DateParseHandling = DateParseHandling.None };
            JObject snapshot = JObject.Load(reader);
            snapshot.Remove("@metadata");
            info.Snapshot = snapshot;
            info.ServerText = null;
        }
        if (info.Snapshot is not null)
        {
            // Loaded from the server: compare as JSON values, since the server's spelling of the same values may differ from ours.
            JObject document = JObject.FromObject(info.Entity, Serializer);
            document.Remove(Conventions.IdentityPropertyName);
            return metadataChanged || !JToken.DeepEquals(info.Snapshot, document) ? document.ToString(Formatting.None) : null;
        }
        string text = SerializeText(info.Entity);
        return metadataChanged || info.SnapshotText is null || !string.Equals(text, info.SnapshotText, StringComparison.Ordinal) ? text : null;
    }

    private string SerializeText(object entity)
    {
        var text = new StringWriter(CultureInfo.InvariantCulture);
        using (var writer = new JsonTextWriter(text) { Formatting = Formatting.None })
            Serializer.Serialize(writer, entity);
        return text.ToString();
    }

    public async Task SaveChangesAsync(CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var written = new List<(DocumentInfo Info, string Json)>();
        var body = new StringWriter(CultureInfo.InvariantCulture);
        using var writer = new JsonTextWriter(body) { Formatting = Formatting.None };
        writer.WriteStartObject();
        writer.WritePropertyName("Commands");
        writer.WriteStartArray();
        foreach (DocumentInfo info in _tracked)
        {
            string? json = ChangedJson(info);
            if (json is null)
                continue;
            writer.WriteStartObject();
            writer.WritePropertyName("Type");
            writer.WriteValue("PUT");
            writer.WritePropertyName("Id");
            writer.WriteValue(info.Id ?? info.ServerIdPrefix);
            string? expected = info.ExpectedChangeVector ?? (UseOptimisticConcurrency && !info.IsNew ? info.ChangeVector : null);
            if (expected is not null)
            {
                writer.WritePropertyName("ChangeVector");
                writer.WriteValue(expected);
            }
            writer.WritePropertyName("Document");
            writer.WriteRawValue(WithMetadata(json, info.Metadata));
            writer.WriteEndObject();
            written.Add((info, json));
        }
        var deleted = new List<string>();
        foreach (KeyValuePair<string, string?> delete in _deletes)
        {
            writer.WriteStartObject();
            writer.WritePropertyName("Type");
            writer.WriteValue("DELETE");
            writer.WritePropertyName("Id");
            writer.WriteValue(delete.Key);
            if (delete.Value is not null)
            {
                writer.WritePropertyName("ChangeVector");
                writer.WriteValue(delete.Value);
            }
            writer.WriteEndObject();
            deleted.Add(delete.Key);
        }
        if (written.Count == 0 && deleted.Count == 0)
            return;
        writer.WriteEndArray();
        writer.WriteEndObject();
        writer.Flush();

        IncrementRequestCount();
        var route = new Http.UrlBuilder(DatabasePath("bulk_docs"));
        if (_waitForIndexesTimeout is TimeSpan wait)
            route.Add("waitForIndexesTimeout", ((long)wait.TotalMilliseconds).ToString(CultureInfo.InvariantCulture));
        string path = route.ToString();
        byte[] request = Encoding.UTF8.GetBytes(body.ToString());
        JObject answer = (await Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Post, new Uri(url, path)) { Content = Http.RequestExecutor.JsonContent(request) },
            null, cancellationToken).ConfigureAwait(false))!;
        _waitForIndexesTimeout = null;

        var results = (JArray)answer["Results"]!;
        for (int i = 0; i < written.Count; i++)
        {
            (DocumentInfo info, string json) = written[i];
            JToken result = results[i];
            string id = (string)result["@id"]!;
            if (info.Id is null)
            {
                info.Id = id;
                Conventions.SetId(info.Entity, id);
                _byId[id] = info;
            }
            info.ChangeVector = (string?)result["@change-vector"];
            info.ExpectedChangeVector = null;
            info.ServerIdPrefix = null;
            info.Metadata["@id"] = id;
            info.Metadata["@collection"] = result["@collection"];
            info.Metadata["@change-vector"] = info.ChangeVector;
            info.Metadata["@last-modified"] = result["@last-modified"];
            info.MetadataSnapshot = info.MetadataSnapshot is null ? null : (JObject)info.Metadata.DeepClone();
            info.Snapshot = null;
            info.SnapshotText = json;
        }
        foreach (string id in deleted)
            _deletes.Remove(id);
    }

    /// <summary>The document's JSON with its metadata as the last property (the text of a JSON object ends in <c>}</c>).</summary>
    private static string WithMetadata(string json, JObject metadata)
    {
        string trimmed = json.TrimEnd();
        string separator = trimmed.Length > 2 ? "," : "";
        return trimmed[..^1] + separator + "\"@metadata\":" + metadata.ToString(Formatting.None) + "}";
    }
}
