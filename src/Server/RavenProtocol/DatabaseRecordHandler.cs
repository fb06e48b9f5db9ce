using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// <c>GET /admin/databases?name=</c>: a database's record as the seeds' system's clients read it, for the
/// one thing Folio's databases have of it: that the database exists, on this node.
/// </summary>
public sealed class DatabaseRecordHandler
{
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Finds the database.</param>
    public DatabaseRecordHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>Answers <c>{"DatabaseName","Disabled","Encrypted","Settings":{},"Topology":{"Members":["A"],…},"Etag"}</c>; 404 when there is none.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/admin/databases", Access = RouteAccess.Admin)]
    public async ValueTask Get(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        DatabaseName.Validate(name);
        if (!_databases.TryGet(name, out DatabaseEntry? database))
        {
            throw new FolioHttpException(
                StatusCodes.Status404NotFound,
                "Database not found",
                $"There is no database named '{name}'.",
                ProblemTypes.DatabaseNotFound);
        }

        await JsonResponse.WriteAsync(request.Response, database.Name, WriteRecord, request.Aborted);
    }

    private static void WriteRecord(Utf8JsonWriter writer, string name)
    {
        writer.WriteStartObject();
        writer.WriteString("DatabaseName"u8, name);
        writer.WriteBoolean("Disabled"u8, false);
        writer.WriteBoolean("Encrypted"u8, false);
        writer.WriteStartObject("Settings"u8);
        writer.WriteEndObject();
        writer.WriteStartObject("Topology"u8);
        writer.WriteStartArray("Members"u8);
        writer.WriteStringValue(NodeTopologyHandler.NodeTag);
        writer.WriteEndArray();
        writer.WriteStartArray("Promotables"u8);
        writer.WriteEndArray();
        writer.WriteStartArray("Rehabs"u8);
        writer.WriteEndArray();
        writer.WriteNumber("ReplicationFactor"u8, 1);
        writer.WriteEndObject();
        writer.WriteNumber("Etag"u8, 1);
        writer.WriteEndObject();
    }
}
