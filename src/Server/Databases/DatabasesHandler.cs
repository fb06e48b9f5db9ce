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

    /// <summary><c>GET /databases</c>: <c>{"Databases":[{"Name"}…]}</c> ordered by name; a caller whose clearance names databases sees only those.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases", Access = RouteAccess.Authenticated)]
    public async ValueTask List(FolioRequest request)
    {
        IReadOnlyList<Database> all = _databases.List();
        Credential? caller = _authenticator.CallerOf(request.Context);
        if (caller is not null && !caller.AllowsEveryDatabase)
            all = all.Where(d => caller.CanUse(d.Name)).ToArray();
        await JsonResponse.WriteAsync(request.Response, all, WriteList, request.Aborted);
    }

    /// <summary><c>PUT /admin/databases</c> with <c>{"Name":"…"}</c>: 201 <c>{"Name"}</c>; 409 when it exists; 400 for a bad name.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the database exists and the answer is written.</returns>
    [FolioRoute("PUT", "/admin/databases", Access = RouteAccess.Admin)]
    public async ValueTask Create(FolioRequest request)
    {
        string name;
        using (RequestBody body = await RequestBody.ReadAsync(request.Request, MaxCreateBodyBytes, request.Aborted))
            name = ReadName(body.Span, _options.MaxJsonDepth);

        Database database = await _databases.CreateAsync(name, request.Aborted);
        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, database, WriteCreated, request.Aborted);
    }

    /// <summary><c>DELETE /admin/databases?name=</c>: 204 once the database and its files are gone; 404 when there is none.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when deleted.</returns>
    [FolioRoute("DELETE", "/admin/databases", Access = RouteAccess.Admin)]
    public async ValueTask Delete(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        DatabaseName.Validate(name);
        // Not cancelled with the request: a delete that has begun closing the store must finish.
        if (!await _databases.DeleteAsync(name, CancellationToken.None))
        {
            throw new FolioHttpException(
                StatusCodes.Status404NotFound,
                "Database not found",
                $"There is no database named '{name}'.",
                ProblemTypes.DatabaseNotFound);
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    private static void WriteList(Utf8JsonWriter writer, IReadOnlyList<Database> databases)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Databases"u8);
        foreach (Database database in databases)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, database.Name);
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteCreated(Utf8JsonWriter writer, Database database)
    {
        writer.WriteStartObject();
        writer.WriteString("Name"u8, database.Name);
        writer.WriteEndObject();
    }

    private static string ReadName(ReadOnlySpan<byte> json, int maxDepth)
    {
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth });
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            throw QueryParameters.Invalid("The body must be a JSON object such as {\"Name\":\"Northwind\"}.");
        string? name = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isName = reader.ValueTextEquals("Name"u8);
            reader.Read();
            if (isName && reader.TokenType == JsonTokenType.String)
            {
                // A name is ASCII by the naming rules; GetString would throw on invalid UTF-8 anyway.
                name = System.Text.Unicode.Utf8.IsValid(reader.ValueSpan) ? reader.GetString() : null;
                continue;
            }

            reader.Skip();
        }

        if (reader.Read())
            throw QueryParameters.Invalid("The body must be one JSON object.");
        return name ?? throw QueryParameters.Invalid("The body must name the database as a string, e.g. {\"Name\":\"Northwind\"}.");
    }
}
