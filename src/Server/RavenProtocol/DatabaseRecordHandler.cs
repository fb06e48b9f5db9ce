using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// <c>GET /admin/databases?name=</c>: a database's record as the seeds' system's clients read it, for what Folio's
/// databases have of it: that the database exists, on this node, its lock mode (<c>POST /admin/databases/set-lock</c>) and
/// which collections it compresses (<c>POST /databases/{db}/admin/documents-compression/config</c>).
/// </summary>
public sealed class DatabaseRecordHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly Configuration.ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Finds the database.</param>
    /// <param name="options">Supplies the body and depth limits.</param>
    public DatabaseRecordHandler(DatabaseRegistry databases, Configuration.ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>Answers <c>{"DatabaseName","LockMode","DatabaseState":"Normal","Disabled","Encrypted","Settings":{},"DocumentsCompression","Topology":{"Members":["A"],…},"Etag"}</c>; 404 when there is none.</summary>
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

        DocumentsCompressionSetting compression = _databases.GetDocumentsCompression(database.Name)
            ?? DocumentsCompressionSetting.OfServer(_databases.ServerCompression);
        await JsonResponse.WriteAsync(request.Response, (database.Name, database.LockMode, compression), WriteRecord, request.Aborted);
    }

    /// <summary>
    /// <c>POST /admin/databases/set-lock</c> with <c>{"DatabaseNames":[…],"Mode":"Unlock|PreventDeletesIgnore|PreventDeletesError"}</c>:
    /// sets whether the databases may be deleted, all or none (404 for a name without a database). 204.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the lock modes are kept.</returns>
    [FolioRoute("POST", "/admin/databases/set-lock", Access = RouteAccess.Admin)]
    public async ValueTask SetLock(FolioRequest request)
    {
        const string Shape = "The body must be {\"DatabaseNames\":[name, …],\"Mode\":\"Unlock|PreventDeletesIgnore|PreventDeletesError\"}.";
        var entries = new List<DatabaseEntry>();
        DatabaseLockMode mode;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
        {
            JsonElement root = body.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("DatabaseNames", out JsonElement names) || names.ValueKind != JsonValueKind.Array
                || names.GetArrayLength() == 0 || !root.TryGetProperty("Mode", out JsonElement modeText) || modeText.ValueKind != JsonValueKind.String
                || modeText.GetString() is not { Length: > 0 } text || char.IsDigit(text[0]) || !Enum.TryParse(text, out mode) || !Enum.IsDefined(mode))
                throw QueryParameters.Invalid(Shape);
            foreach (JsonElement name in names.EnumerateArray())
            {
                string value = name.ValueKind == JsonValueKind.String ? name.GetString()! : throw QueryParameters.Invalid(Shape);
                DatabaseName.Validate(value);
                entries.Add(_databases.TryGet(value, out DatabaseEntry? entry) ? entry : throw NotFound(value));
            }
        }

        foreach (DatabaseEntry entry in entries)
            entry.SetLockMode(mode);
        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    private static FolioHttpException NotFound(string name) => new(
        StatusCodes.Status404NotFound,
        "Database not found",
        $"There is no database named '{name}'.",
        ProblemTypes.DatabaseNotFound);

    private static void WriteRecord(Utf8JsonWriter writer, (string Name, DatabaseLockMode LockMode, DocumentsCompressionSetting Compression) record)
    {
        writer.WriteStartObject();
        writer.WriteString("DatabaseName"u8, record.Name);
        writer.WriteString("LockMode"u8, record.LockMode.ToString());
        writer.WriteString("DatabaseState"u8, "Normal");
        writer.WriteBoolean("Disabled"u8, false);
        writer.WriteBoolean("Encrypted"u8, false);
        writer.WriteStartObject("Settings"u8);
        writer.WriteEndObject();
        writer.WritePropertyName("DocumentsCompression"u8);
        record.Compression.Write(writer);
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
