using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Operations;
using Folio.Server.RavenProtocol;
using Folio.Server.Routing;

namespace Folio.Server.Databases;

/// <summary>
/// <c>POST /admin/databases/{db}/compact</c>: rewrites the database's data file into a new one without the pages
/// deletes and updates freed, as a tracked operation (answered 202 with its id; progress through
/// <c>GET /databases/{db}/operations/state?id=</c>, and <c>Compaction</c> in the database's stats while it runs).
/// </summary>
public sealed class CompactionHandler(DatabaseRegistry databases, ILogger<CompactionHandler> logger)
{
    /// <summary>Starts the compaction; answers 202 <c>{"OperationId","OperationNodeTag"}</c>, or 409 while one runs.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the operation is registered and the answer written.</returns>
    [FolioRoute("POST", "/admin/databases/{db}/compact", Access = RouteAccess.Admin)]
    public async ValueTask Compact(FolioRequest request)
    {
        long id;
        using (var lease = databases.Lease(request.DatabaseSpan))
        {
            var database = lease.Database;
            if (!database.TryBeginCompaction())
            {
                throw new FolioHttpException(
                    StatusCodes.Status409Conflict,
                    "Compaction in progress",
                    $"The database '{database.Name}' is being compacted already; poll its operation or wait for it to end.",
                    ProblemTypes.CompactionInProgress);
            }
            try
            {
                var operation = database.Operations.Register(OperationKind.Compaction, "compact");
                id = operation.Id;
                new CompactionRunner(database, operation, logger).Start();
            }
            catch
            {
                database.EndCompaction(null);
                throw;
            }
        }
        request.Response.StatusCode = StatusCodes.Status202Accepted;
        await JsonResponse.WriteAsync(request.Response, id, WriteStarted, request.Aborted);
    }

    private static void WriteStarted(Utf8JsonWriter writer, long id)
    {
        writer.WriteStartObject();
        writer.WriteNumber("OperationId"u8, id);
        writer.WriteString("OperationNodeTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteEndObject();
    }
}
