using System.Globalization;
using Folio.Client.Conventions;
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

    public bool HasChanged(object entity)
    {
        DocumentInfo info = InfoOf(entity);
        return IsChanged(info, Serialize(info));
    }

    public bool HasChanges
    {
        get
        {
            if (_deletes.Count > 0)
                return true;
            foreach (DocumentInfo info in _tracked)
            {
                if (IsChanged(info, Serialize(info)))
                    return true;
            }
            return false;
        }
    }

    private JObject Serialize(DocumentInfo info)
    {
        JObject document = JObject.FromObject(info.Entity, Serializer);
        // The id lives in @metadata.@id; the entity's Id property is not part of the stored body.
        document.Remove(Conventions.IdentityPropertyName);
        return document;
    }

    private static bool IsChanged(DocumentInfo info, JObject document) =>
        info.IsNew || !JToken.DeepEquals(info.Snapshot, document) || !JToken.DeepEquals(info.MetadataSnapshot, info.Metadata);

    public async Task SaveChangesAsync(CancellationToken cancellationToken = default)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        var commands = new JArray();
        var written = new List<(DocumentInfo Info, JObject Document)>();
        foreach (DocumentInfo info in _tracked)
        {
            JObject document = Serialize(info);
            if (!IsChanged(info, document))
                continue;
            var body = (JObject)document.DeepClone();
            body["@metadata"] = info.Metadata.DeepClone();
            var command = new JObject { ["Type"] = "PUT", ["Id"] = info.Id ?? info.ServerIdPrefix, ["Document"] = body };
            string? expected = info.ExpectedChangeVector ?? (UseOptimisticConcurrency && !info.IsNew ? info.ChangeVector : null);
            if (expected is not null)
                command["ChangeVector"] = expected;
            commands.Add(command);
            written.Add((info, document));
        }
        var deleted = new List<string>();
        foreach (KeyValuePair<string, string?> delete in _deletes)
        {
            var command = new JObject { ["Type"] = "DELETE", ["Id"] = delete.Key };
            if (delete.Value is not null)
                command["ChangeVector"] = delete.Value;
            commands.Add(command);
            deleted.Add(delete.Key);
        }
        if (commands.Count == 0)
            return;

        IncrementRequestCount();
        var route = new Http.UrlBuilder(DatabasePath("bulk_docs"));
        if (_waitForIndexesTimeout is TimeSpan wait)
            route.Add("waitForIndexesTimeout", ((long)wait.TotalMilliseconds).ToString(CultureInfo.InvariantCulture));
        string path = route.ToString();
        var request = new JObject { ["Commands"] = commands };
        JObject answer = (await Executor.SendForJsonAsync(
            url => new HttpRequestMessage(HttpMethod.Post, new Uri(url, path)) { Content = Http.RequestExecutor.JsonContent(request) },
            null, cancellationToken).ConfigureAwait(false))!;
        _waitForIndexesTimeout = null;

        var results = (JArray)answer["Results"]!;
        for (int i = 0; i < written.Count; i++)
        {
            (DocumentInfo info, JObject document) = written[i];
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
            info.MetadataSnapshot = (JObject)info.Metadata.DeepClone();
            info.Snapshot = document;
        }
        foreach (string id in deleted)
            _deletes.Remove(id);
    }
}
