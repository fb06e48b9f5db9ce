using System.Linq.Expressions;
using Folio.Client.Linq;

namespace Folio.Client.Session;

/// <summary>
/// A unit of work: loads and queries return tracked entities (loading the same id twice answers the same object),
/// changes to them, new entities and deletes are sent together by <see cref="SaveChangesAsync"/> in one transaction.
/// Not thread safe; open one per unit of work and dispose it. Each session may make
/// <see cref="Conventions.DocumentConventions.MaxNumberOfRequestsPerSession"/> requests.
/// </summary>
public interface IAsyncDocumentSession : IDisposable, IAsyncDisposable
{
    /// <summary>Loads the document <paramref name="id"/>; null when there is none. Answers a tracked entity without a request when the session has it.</summary>
    Task<T?> LoadAsync<T>(string id, CancellationToken cancellationToken = default) where T : class;

    /// <summary>Loads several documents in one request; the answer maps each id asked to its entity, or null when missing.</summary>
    Task<Dictionary<string, T?>> LoadAsync<T>(IEnumerable<string> ids, CancellationToken cancellationToken = default) where T : class;

    /// <summary>Starts a load that also brings the documents referred to at <paramref name="path"/> into the session, so loading them later needs no request.</summary>
    ILoaderWithInclude<T> Include<T>(Expression<Func<T, object?>> path) where T : class;

    /// <summary>Starts a load that also brings the documents referred to at <paramref name="path"/> (<c>CompanyId</c>, <c>Lines[].ProductId</c>) into the session.</summary>
    ILoaderWithInclude<object> Include(string path);

    /// <summary>
    /// Tracks a new entity to be stored on <see cref="SaveChangesAsync"/>. Its id is its <c>Id</c> property; when that is
    /// null, a HiLo id is set now, or the server makes one on save (per <see cref="Conventions.DocumentConventions.IdGeneration"/>).
    /// </summary>
    Task StoreAsync(object entity, CancellationToken cancellationToken = default);

    /// <summary>Tracks a new entity under <paramref name="id"/> (an id ending in <c>/</c> asks the server to make one).</summary>
    Task StoreAsync(object entity, string id, CancellationToken cancellationToken = default);

    /// <summary>Tracks an entity to be stored under <paramref name="id"/> only if the stored document still has <paramref name="changeVector"/> (null: no check); a mismatch makes the save throw <see cref="Exceptions.ConcurrencyException"/>.</summary>
    Task StoreAsync(object entity, string? changeVector, string id, CancellationToken cancellationToken = default);

    /// <summary>Marks a tracked entity to be deleted on save.</summary>
    void Delete<T>(T entity) where T : class;

    /// <summary>Marks the document <paramref name="id"/> to be deleted on save, loaded or not.</summary>
    void Delete(string id);

    /// <summary>Sends every new, changed and deleted entity in one transaction (nothing when nothing changed).</summary>
    Task SaveChangesAsync(CancellationToken cancellationToken = default);

    /// <summary>A LINQ query over the collection of <typeparamref name="T"/>, or over the index <paramref name="indexName"/>.</summary>
    IFolioQueryable<T> Query<T>(string? indexName = null, string? collectionName = null);

    /// <summary>Metadata, change vectors, raw queries, streams and session options.</summary>
    IAdvancedSessionOperations Advanced { get; }
}
