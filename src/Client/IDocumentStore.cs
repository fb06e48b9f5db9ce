using Folio.Client.BulkInsert;
using Folio.Client.Changes;
using Folio.Client.Conventions;
using Folio.Client.Session;
using Folio.Client.Subscriptions;

namespace Folio.Client;

/// <summary>
/// The entry point to a Folio database: one per application (it holds the connection pool), shared by every thread.
/// Open a session per unit of work.
/// </summary>
public interface IDocumentStore : IDisposable, IAsyncDisposable
{
    /// <summary>The servers' base urls (<c>http://127.0.0.1:8080</c>); requests go to the first that answers.</summary>
    IReadOnlyList<string> Urls { get; }

    /// <summary>The database sessions and operations use unless told another.</summary>
    string? Database { get; }

    /// <summary>How entities map to documents.</summary>
    DocumentConventions Conventions { get; }

    /// <summary>Opens a unit of work on <paramref name="database"/> (the store's database when null).</summary>
    IAsyncDocumentSession OpenAsyncSession(string? database = null);

    /// <summary>Starts a streaming bulk insert into <paramref name="database"/>; dispose it (asynchronously) to finish.</summary>
    BulkInsertOperation BulkInsert(string? database = null, CancellationToken cancellationToken = default);

    /// <summary>The database's changes feed.</summary>
    ChangesFeed Changes(string? database = null);

    /// <summary>Data subscriptions: define them, and run workers that process their batches.</summary>
    DocumentSubscriptions Subscriptions { get; }

    /// <summary>Databases and indexes.</summary>
    MaintenanceOperations Maintenance { get; }
}
