using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// <c>GET /databases/{db}/operations/next-operation-id</c>: the clients take an id before a bulk insert (and
/// other tracked operations) and send it back with the request; ids come from the database's
/// operation registry, so they never repeat a tracked operation's (patch or delete by query).
/// </summary>
public sealed class OperationIdsHandler
{
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Checks that the database exists.</param>
    public OperationIdsHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>Answers <c>{"Id","NodeTag"}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/operations/next-operation-id", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Next(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            long id = lease.Database.Operations.NextId();
            await JsonResponse.WriteAsync(request.Response, id, WriteId, request.Aborted);
        }
    }

    private static void WriteId(Utf8JsonWriter writer, long id)
    {
        writer.WriteStartObject();
        writer.WriteNumber("Id"u8, id);
        writer.WriteString("NodeTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteEndObject();
    }
}
