using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Server.Security;

namespace Folio.Server.Databases;

/// <summary>Lists, creates and deletes databases.</summary>
public sealed class DatabasesHandler
{
    // A create body is {"Name":"…"}; anything near this size is not one.
    private const int MaxCreateBodyBytes = 64 * 1024;

    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;
    private readonly Authenticator _authenticator;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">The server's databases.</param>
    /// <param name="options">Supplies the JSON depth limit.</param>
    /// <param name="authenticator">Tells whose databases a caller may see.</param>
    public DatabasesHandler(DatabaseRegistry databases, ServerOptions options, Authenticator authenticator)
    {
        _databases = databases;
        _options = options;
        _authenticator = authenticator;
    }

    /// <summary>
    /// <c>GET /databases</c>: <c>{"Databases":[{"Name","Loaded"}…]}</c> ordered by name (<c>Loaded</c>: open now rather than
    /// waiting on disk for its next request), or with <c>namesOnly=true</c> (as the seeds'
    /// system's clients ask) <c>{"Databases":["name"…]}</c>; a caller whose clearance names databases sees only those.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases", Access = RouteAccess.Authenticated)]
    public async ValueTask List(FolioRequest request)
    {
        IReadOnlyList<DatabaseEntry> all = _databases.List();
        Credential? caller = _authenticator.CallerOf(request.Context);
        if (caller is not null && !caller.AllowsEveryDatabase)
            all = all.Where(d => caller.CanUse(d.Name)).ToArray();
        bool namesOnly = QueryParameters.Optional(request.Request, "namesOnly") switch
        {
            null or "false" => false,
            "true" => true,
            _ => throw QueryParameters.Invalid("'namesOnly' must be true or false."),
        };
        await JsonResponse.WriteAsync(request.Response, (all, namesOnly), WriteList, request.Aborted);
    }

    /// <summary>
    /// <c>PUT /admin/databases</c> with <c>{"Name":"…"}</c>, or the seeds' system's database record
    /// <c>{"DatabaseName":"…","DocumentsCompression":{…},"Settings":{…},…}</c> (its <c>DocumentsCompression</c> becomes the
    /// database's own compression setting; its other fields are accepted and not used): 201 <c>{"Name"}</c>
    /// (with <c>RaftCommandIndex</c> and <c>NodesAddedTo</c> for a database record); 409 when it exists; 400 for a bad name.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the database exists and the answer is written.</returns>
    [FolioRoute("PUT", "/admin/databases", Access = RouteAccess.Admin)]
    public async ValueTask Create(FolioRequest request)
    {
        (string Name, bool IsRecord) named;
        DocumentsCompressionSetting? compression = null;
        using (RequestBody body = await RequestBody.ReadAsync(request.Request, MaxCreateBodyBytes, request.Aborted))
        {
            named = ReadName(body.Span, _options.MaxJsonDepth);
            if (named.IsRecord)
                compression = ReadCompression(body.Span, _options.MaxJsonDepth);
        }

        Database database = await _databases.CreateAsync(named.Name, request.Aborted);
        if (compression is not null)
            _databases.SetDocumentsCompression(database.Name, compression);
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (database, named.IsRecord), WriteCreated, request.Aborted);
    }

    /// <summary>
    /// <c>DELETE /admin/databases?name=</c>: 204 once the database and its files are gone; 404 when there is none.
    /// Without <c>name</c>, the body names them as the seeds' system's clients do, <c>{"DatabaseNames":[…]}</c>:
    /// every name is checked first (400 for a bad one, 404 for a missing one, nothing deleted), then all are
    /// deleted and the answer is 200 <c>{"RaftCommandIndex","PendingDeletes":[]}</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when deleted.</returns>
    [FolioRoute("DELETE", "/admin/databases", Access = RouteAccess.Admin)]
    public async ValueTask Delete(FolioRequest request)
    {
        string? name = QueryParameters.Optional(request.Request, "name");
        if (name is null)
        {
            await DeleteNamedInBodyAsync(request);
            return;
        }

        DatabaseName.Validate(name);
        if (_databases.TryGet(name, out DatabaseEntry? locked) && Locked(locked))
        {
            request.Response.StatusCode = StatusCodes.Status204NoContent;
            return;
        }

        // Not cancelled with the request: a delete that has begun closing the store must finish.
        if (!await _databases.DeleteAsync(name, CancellationToken.None))
            throw NotFound(name);

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    private async ValueTask DeleteNamedInBodyAsync(FolioRequest request)
    {
        List<string> names;
        using (RequestBody body = await RequestBody.ReadAsync(request.Request, MaxCreateBodyBytes, request.Aborted))
        {
            if (body.Span.IsEmpty)
                throw QueryParameters.Invalid("The query parameter 'name' is required (or a body {\"DatabaseNames\":[…]}).");
            names = ReadNames(body.Span, _options.MaxJsonDepth);
        }
        var deletable = new List<string>(names.Count);
        foreach (string name in names)
        {
            DatabaseName.Validate(name);
            if (!_databases.TryGet(name, out DatabaseEntry? entry))
                throw NotFound(name);
            if (!Locked(entry))
                deletable.Add(name);
        }

        foreach (string name in deletable)
            await _databases.DeleteAsync(name, CancellationToken.None);
        // The seeds' system's clients read -1 as "nothing was deleted".
        await JsonResponse.WriteAsync(request.Response, deletable.Count == 0 ? -1 : deletable.Count, WriteDeleted, request.Aborted);
    }

    /// <summary>Whether the database's lock mode keeps it from being deleted: false to delete it, true to leave it; 409 when the lock refuses the delete.</summary>
    private static bool Locked(DatabaseEntry entry) => entry.LockMode switch
    {
        DatabaseLockMode.PreventDeletesIgnore => true,
        DatabaseLockMode.PreventDeletesError => throw new FolioHttpException(
            StatusCodes.Status409Conflict,
            "Database locked",
            $"Database '{entry.Name}' cannot be deleted because of the set lock mode ({entry.LockMode}); unlock it first.",
            ProblemTypes.DatabaseLocked),
        _ => false,
    };

    private static FolioHttpException NotFound(string name) => new(
        StatusCodes.Status404NotFound,
        "Database not found",
        $"There is no database named '{name}'.",
        ProblemTypes.DatabaseNotFound);

    private static void WriteDeleted(Utf8JsonWriter writer, int count)
    {
        writer.WriteStartObject();
        writer.WriteNumber("RaftCommandIndex"u8, count);
        writer.WriteStartArray("PendingDeletes"u8);
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static List<string> ReadNames(ReadOnlySpan<byte> json, int maxDepth)
    {
        const string Shape = "The body must be {\"DatabaseNames\":[\"name\", …]} (or pass ?name=).";
        if (!System.Text.Unicode.Utf8.IsValid(json))
            throw QueryParameters.Invalid("The body is not valid UTF-8.");
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth });
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            throw QueryParameters.Invalid(Shape);
        List<string>? names = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isNames = reader.ValueTextEquals("DatabaseNames"u8);
            reader.Read();
            if (!isNames)
            {
                reader.Skip();
                continue;
            }

            if (reader.TokenType != JsonTokenType.StartArray)
                throw QueryParameters.Invalid(Shape);
            names = [];
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                names.Add(reader.TokenType == JsonTokenType.String ? reader.GetString()! : throw QueryParameters.Invalid(Shape));
        }

        if (reader.Read())
            throw QueryParameters.Invalid("The body must be one JSON object.");
        return names is { Count: > 0 } ? names : throw QueryParameters.Invalid(Shape);
    }

    private static void WriteList(Utf8JsonWriter writer, (IReadOnlyList<DatabaseEntry> Databases, bool NamesOnly) list)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Databases"u8);
        foreach (DatabaseEntry database in list.Databases)
        {
            if (list.NamesOnly)
            {
                writer.WriteStringValue(database.Name);
                continue;
            }

            writer.WriteStartObject();
            writer.WriteString("Name"u8, database.Name);
            writer.WriteBoolean("Loaded"u8, database.IsLoaded);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteCreated(Utf8JsonWriter writer, (Database Database, bool IsRecord) created)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, created.Database.Name);
        if (created.IsRecord)
        {
            writer.WriteNumber("RaftCommandIndex"u8, 1);
            writer.WriteStartArray("NodesAddedTo"u8);
            writer.WriteStringValue(RavenProtocol.NodeTopologyHandler.NodeTag);
            writer.WriteEndArray();
        }

        writer.WriteEndObject();
    }

    /// <summary>A database record's <c>DocumentsCompression</c>, checked before anything is created; null when it has none.</summary>
    private static DocumentsCompressionSetting? ReadCompression(ReadOnlySpan<byte> json, int maxDepth)
    {
        using JsonDocument record = JsonDocument.Parse(json.ToArray(), new JsonDocumentOptions { MaxDepth = maxDepth });
        if (!record.RootElement.TryGetProperty("DocumentsCompression", out JsonElement compression) || compression.ValueKind == JsonValueKind.Null)
            return null;
        var (setting, error) = DocumentsCompressionSetting.Read(compression);
        return setting ?? throw QueryParameters.Invalid("DocumentsCompression: " + error);
    }

    private static (string Name, bool IsRecord) ReadName(ReadOnlySpan<byte> json, int maxDepth)
    {
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth });
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            throw QueryParameters.Invalid("The body must be a JSON object such as {\"Name\":\"Northwind\"}.");
        string? name = null;
        bool isRecord = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isName = reader.ValueTextEquals("Name"u8);
            bool isRecordName = !isName && reader.ValueTextEquals("DatabaseName"u8);
            reader.Read();
            if ((isName || isRecordName) && reader.TokenType == JsonTokenType.String)
            {
                // A name is ASCII by the naming rules; GetString would throw on invalid UTF-8 anyway.
                name = System.Text.Unicode.Utf8.IsValid(reader.ValueSpan) ? reader.GetString() : null;
                isRecord |= isRecordName;
                continue;
            }

            reader.Skip();
        }

        if (reader.Read())
            throw QueryParameters.Invalid("The body must be one JSON object.");
        return name is null
            ? throw QueryParameters.Invalid("The body must name the database as a string, e.g. {\"Name\":\"Northwind\"} or a database record {\"DatabaseName\":\"Northwind\"}.")
            : (name, isRecord);
    }
}
