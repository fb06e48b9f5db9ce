using Folio.Client.Conventions;
using Folio.Client.Exceptions;
using Folio.Client.Http;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>The unit of work: identity map, change tracking and the request budget (the operations are in partial files).</summary>
internal sealed partial class AsyncDocumentSession : IAsyncDocumentSession, IAdvancedSessionOperations
{
    private readonly Dictionary<string, DocumentInfo> _byId = new(StringComparer.OrdinalIgnoreCase);
    private readonly Dictionary<object, DocumentInfo> _byEntity = new(ReferenceEqualityComparer.Instance);

    // Tracked entities in the order they became known, so a save writes them in that order.
    private readonly List<DocumentInfo> _tracked = [];

    // Ids to delete on save, with the change vector the delete must find (null: unconditional).
    private readonly Dictionary<string, string?> _deletes = new(StringComparer.OrdinalIgnoreCase);

    // Documents that came as includes, not yet asked for; a null value remembers an id known to be missing.
    private readonly Dictionary<string, JObject?> _included = new(StringComparer.OrdinalIgnoreCase);

    private TimeSpan? _waitForIndexesTimeout;
    private bool _disposed;

    public AsyncDocumentSession(DocumentStore store, string database)
    {
        Store = store;
        Database = database;
        MaxNumberOfRequestsPerSession = store.Conventions.MaxNumberOfRequestsPerSession;
        store.Initialize();
    }

    public DocumentStore Store { get; }

    public string Database { get; }

    public DocumentConventions Conventions => Store.Conventions;

    internal RequestExecutor Executor => Store.Executor;

    internal JsonSerializer Serializer => Store.Conventions.Serializer;

    public IAdvancedSessionOperations Advanced => this;

    public int NumberOfRequests { get; private set; }

    public int MaxNumberOfRequestsPerSession { get; set; }

    public bool UseOptimisticConcurrency { get; set; }

    /// <summary>Counts a request against the budget; throws before sending the one over it.</summary>
    internal void IncrementRequestCount()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (NumberOfRequests >= MaxNumberOfRequestsPerSession)
            throw new RequestBudgetExceededException(MaxNumberOfRequestsPerSession);
        NumberOfRequests++;
    }

    internal string DatabasePath(string route) => "databases/" + Uri.EscapeDataString(Database) + "/" + route;

    /// <summary>
    /// The entity for a document the server answered: the tracked one when the session has this id (a session hands
    /// out one object per id), else a new one, tracked from now on.
    /// </summary>
    internal object? TrackDocument(JObject document, Type type)
    {
        var metadata = document["@metadata"] as JObject;
        string? id = (string?)metadata?["@id"];
        if (id is null)
            return Deserialize(document, type);
        if (_deletes.ContainsKey(id))
            return null;
        if (_byId.TryGetValue(id, out DocumentInfo? known))
            return known.Entity;

        document.Remove("@metadata");
        object entity = document.ToObject(type, Serializer)!;
        Conventions.SetId(entity, id);
        var info = new DocumentInfo(entity, id, (string?)metadata!["@collection"] ?? Conventions.GetCollectionName(type))
        {
            ChangeVector = (string?)metadata["@change-vector"],
            Metadata = metadata,
            Snapshot = document,
        };
        Track(info);
        return entity;
    }

    internal object? Deserialize(JToken token, Type type) => token.Type == JTokenType.Null ? null : token.ToObject(type, Serializer);

    private void Track(DocumentInfo info)
    {
        if (info.Id is not null)
            _byId[info.Id] = info;
        _byEntity[info.Entity] = info;
        _tracked.Add(info);
    }

    private void Untrack(DocumentInfo info)
    {
        if (info.Id is not null)
            _byId.Remove(info.Id);
        _byEntity.Remove(info.Entity);
        _tracked.Remove(info);
    }

    private DocumentInfo InfoOf(object entity) =>
        _byEntity.TryGetValue(entity, out DocumentInfo? info)
            ? info
            : throw new InvalidOperationException($"The session does not track this {entity.GetType().Name}: load, query or store it in this session first.");

    public JObject GetMetadataFor<T>(T entity) where T : class
    {
        DocumentInfo info = InfoOf(entity);
        info.MetadataSnapshot ??= (JObject)info.Metadata.DeepClone();
        return info.Metadata;
    }

    public string? GetChangeVectorFor<T>(T entity) where T : class => InfoOf(entity).ChangeVector;

    public string? GetDocumentId(object entity) => _byEntity.TryGetValue(entity, out DocumentInfo? info) ? info.Id : null;

    public bool IsLoaded(string id) => _byId.ContainsKey(id);

    public void Evict<T>(T entity) where T : class
    {
        if (_byEntity.TryGetValue(entity, out DocumentInfo? info))
            Untrack(info);
    }

    public void WaitForIndexesAfterSaveChanges(TimeSpan? timeout = null) => _waitForIndexesTimeout = timeout ?? TimeSpan.FromSeconds(15);

    public void Dispose() => _disposed = true;

    public ValueTask DisposeAsync()
    {
        _disposed = true;
        return ValueTask.CompletedTask;
    }
}
