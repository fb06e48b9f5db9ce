using Folio.Client.Queries;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Session;

/// <summary>The less common operations of a session.</summary>
public interface IAdvancedSessionOperations
{
    /// <summary>The requests this session has made.</summary>
    int NumberOfRequests { get; }

    /// <summary>The most requests this session may make.</summary>
    int MaxNumberOfRequestsPerSession { get; set; }

    /// <summary>When true, every write of an entity loaded from the server (or deleted) names the change vector it was loaded with, so a concurrent change makes the save fail with a <see cref="Exceptions.ConcurrencyException"/>.</summary>
    bool UseOptimisticConcurrency { get; set; }

    /// <summary>The metadata of a tracked entity (<c>@collection</c>, <c>@id</c>, <c>@change-vector</c>, <c>@last-modified</c>, and the application's own properties, which it may add).</summary>
    JObject GetMetadataFor<T>(T entity) where T : class;

    /// <summary>The change vector of a tracked entity's stored version; null when it is new.</summary>
    string? GetChangeVectorFor<T>(T entity) where T : class;

    /// <summary>The id of a tracked entity; null when the server has yet to make it.</summary>
    string? GetDocumentId(object entity);

    /// <summary>Whether the session tracks the entity.</summary>
    bool IsLoaded(string id);

    /// <summary>Whether a tracked entity differs from its stored version (or is new).</summary>
    bool HasChanged(object entity);

    /// <summary>Whether anything would be sent by <c>SaveChangesAsync</c>.</summary>
    bool HasChanges { get; }

    /// <summary>Stops tracking an entity: later changes to it are not saved.</summary>
    void Evict<T>(T entity) where T : class;

    /// <summary>Makes the next <c>SaveChangesAsync</c> answer only once every index over the collections it wrote has indexed the changes (the server waits; <see cref="Exceptions.IndexesTimeoutException"/> after <paramref name="timeout"/>, 15 s by default).</summary>
    void WaitForIndexesAfterSaveChanges(TimeSpan? timeout = null);

    /// <summary>An RQL query with <c>$name</c> parameters, for what LINQ does not say: <c>group by</c>, facets, functions.</summary>
    IRawDocumentQuery<T> RawQuery<T>(string query);

    /// <summary>Streams every result of an RQL query without paging, as the server reads them; results are not tracked.</summary>
    IAsyncEnumerable<StreamResult<T>> StreamAsync<T>(string query, IReadOnlyDictionary<string, object?>? parameters = null, CancellationToken cancellationToken = default);

    /// <summary>Streams every result of a LINQ query without paging; results are not tracked.</summary>
    IAsyncEnumerable<StreamResult<T>> StreamAsync<T>(IQueryable<T> query, CancellationToken cancellationToken = default);
}
