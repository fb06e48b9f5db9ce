using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// Index administration as the seeds' system's clients send it: the database's and each index's indexing status,
/// stopping and starting indexing (all of a database's, or one index's), disabling and enabling an index, its lock
/// mode and priority (kept with the definition, see <see cref="IndexSettings"/>), its indexing errors, and whether a
/// definition differs from the index's.
/// </summary>
public sealed class RavenIndexAdminHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body and depth limits.</param>
    public RavenIndexAdminHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// <c>GET /databases/{db}/indexes/status</c>: <c>{"Status":"Running|Paused","Indexes":[{"Name","Status":"Running|Paused|Disabled|Error"}]}</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/indexes/status", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Status(FolioRequest request)
    {
        bool paused;
        List<(string Name, IndexRunStatus Status)> indexes = [];
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            IndexStore store = lease.Database.Indexes;
            paused = store.IndexingPaused;
            foreach (DocumentIndex index in store.All)
                indexes.Add((index.Name, index.Status));
        }

        await JsonResponse.WriteAsync(request.Response, (paused, indexes), WriteStatus, request.Aborted);
    }

    /// <summary><c>POST /databases/{db}/admin/indexes/stop[?name=]</c>: pauses the database's indexing, or the named index's alone. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the indexers are told.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/indexes/stop", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Stop(FolioRequest request) => Pause(request, paused: true);

    /// <summary><c>POST /databases/{db}/admin/indexes/start[?name=]</c>: resumes the database's indexing, or the named index's. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the indexers are told.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/indexes/start", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Start(FolioRequest request) => Pause(request, paused: false);

    /// <summary><c>POST /databases/{db}/admin/indexes/disable?name=</c>: turns the index's indexer off until enabled, across restarts. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the setting is kept.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/indexes/disable", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Disable(FolioRequest request) => SetDisabled(request, disabled: true);

    /// <summary><c>POST /databases/{db}/admin/indexes/enable?name=</c>: turns a disabled index's indexer on again. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the setting is kept.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/indexes/enable", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Enable(FolioRequest request) => SetDisabled(request, disabled: false);

    /// <summary><c>POST /databases/{db}/indexes/set-lock</c> with <c>{"IndexNames":[…],"Mode":"Unlock|LockedIgnore|LockedError"}</c>: all or none. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the setting is kept.</returns>
    [FolioRoute("POST", "/databases/{db}/indexes/set-lock", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask SetLock(FolioRequest request)
    {
        (List<string> names, IndexLockMode mode) = await ReadNamesAnd<IndexLockMode>(request, "Mode");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            if (lease.Database.Indexes.SetLockMode(names, mode) is { } missing)
                throw NotFound(missing);
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    /// <summary><c>POST /databases/{db}/indexes/set-priority</c> with <c>{"IndexNames":[…],"Priority":"Low|Normal|High"}</c>: all or none. 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the setting is kept.</returns>
    [FolioRoute("POST", "/databases/{db}/indexes/set-priority", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask SetPriority(FolioRequest request)
    {
        (List<string> names, IndexPriority priority) = await ReadNamesAnd<IndexPriority>(request, "Priority");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            if (lease.Database.Indexes.SetPriority(names, priority) is { } missing)
                throw NotFound(missing);
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
    }

    /// <summary>
    /// <c>GET /databases/{db}/indexes/errors[?name=…]</c>: each index's (or each named one's) recent indexing errors,
    /// <c>{"Results":[{"Name","Errors":[{"Timestamp","Document","Action","Error"}]}]}</c>; 404 for a name without an index.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/indexes/errors", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Errors(FolioRequest request)
    {
        List<DocumentIndex> indexes;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            indexes = Named(request, lease.Database.Indexes);
        await JsonResponse.WriteAsync(request.Response, indexes, WriteErrors, request.Aborted);
    }

    /// <summary><c>DELETE /databases/{db}/indexes/errors[?name=…]</c>: forgets the recent errors of every index (or of the named ones; 404 for a name without an index). 204.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the errors are forgotten.</returns>
    [FolioRoute("DELETE", "/databases/{db}/indexes/errors", Access = RouteAccess.DatabaseWrite)]
    public ValueTask DeleteErrors(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            foreach (DocumentIndex index in Named(request, lease.Database.Indexes))
                index.ClearErrors();
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    /// <summary>
    /// <c>POST /databases/{db}/indexes/has-changed</c> with a definition in the seeds' system's shape: <c>{"Changed":bool}</c>,
    /// whether putting it would rebuild the index (true when there is no index of that name, or Folio cannot translate it).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/indexes/has-changed", Access = RouteAccess.DatabaseRead)]
    public async ValueTask HasChanged(FolioRequest request)
    {
        IndexDefinition? definition;
        using (JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted))
        {
            JsonElement root = body.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Name", out JsonElement name) || name.ValueKind != JsonValueKind.String
                || string.IsNullOrEmpty(name.GetString()) || !root.TryGetProperty("Maps", out JsonElement maps) || maps.ValueKind != JsonValueKind.Array || maps.GetArrayLength() == 0)
                throw new IndexDefinitionException("The body must be an index definition with a \"Name\" and non-empty \"Maps\".");
            try
            {
                definition = RavenIndexDefinition.Translate(root);
            }
            catch (IndexDefinitionException)
            {
                // Every index Folio holds came from a definition it translates: one it cannot translate differs from them all.
                definition = null;
            }
        }

        bool changed;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            DocumentIndex? index = definition is null ? null : lease.Database.Indexes.Get(definition.Name);
            changed = index is null || !index.Definition.SameAs(index.Definition.SearchEngine is { } engine ? definition!.WithSearchEngine(engine) : definition!);
        }

        await JsonResponse.WriteAsync(request.Response, changed, static (writer, value) =>
        {
            writer.WriteStartObject();
            writer.WriteBoolean("Changed"u8, value);
            writer.WriteEndObject();
        }, request.Aborted);
    }

    private ValueTask Pause(FolioRequest request, bool paused)
    {
        string? name = QueryParameters.Optional(request.Request, "name");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            IndexStore store = lease.Database.Indexes;
            if (name is null)
            {
                if (paused)
                    store.StopIndexing();
                else
                    store.StartIndexing();
            }
            else if (!store.SetPaused(name, paused))
            {
                throw NotFound(name);
            }
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    private ValueTask SetDisabled(FolioRequest request, bool disabled)
    {
        string name = QueryParameters.Required(request.Request, "name");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            if (!lease.Database.Indexes.SetDisabled(name, disabled))
                throw NotFound(name);
        }

        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    /// <summary>The indexes <c>?name=</c> names (every index without one); 404 for a name without an index.</summary>
    private static List<DocumentIndex> Named(FolioRequest request, IndexStore store)
    {
        Microsoft.Extensions.Primitives.StringValues names = request.Request.Query["name"];
        if (names.Count == 0)
            return [.. store.All];
        var indexes = new List<DocumentIndex>(names.Count);
        foreach (string? name in names)
        {
            if (string.IsNullOrEmpty(name))
                continue;
            indexes.Add(store.Get(name) ?? throw NotFound(name));
        }

        return indexes;
    }

    /// <summary>Reads <c>{"IndexNames":[…],"<paramref name="property"/>":"…"}</c> (property names in any case, as the clients' serializers write them).</summary>
    private async ValueTask<(List<string> Names, TEnum Value)> ReadNamesAnd<TEnum>(FolioRequest request, string property)
        where TEnum : struct, Enum
    {
        using JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted);
        string shape = $"The body must be {{\"IndexNames\":[name, …],\"{property}\":\"{string.Join('|', Enum.GetNames<TEnum>())}\"}}.";
        if (body.RootElement.ValueKind != JsonValueKind.Object)
            throw QueryParameters.Invalid(shape);
        JsonElement list = default;
        JsonElement value = default;
        foreach (JsonProperty member in body.RootElement.EnumerateObject())
        {
            if (member.NameEquals("IndexNames") || member.NameEquals("indexNames"))
                list = member.Value;
            else if (string.Equals(member.Name, property, StringComparison.OrdinalIgnoreCase))
                value = member.Value;
        }

        if (list.ValueKind != JsonValueKind.Array || list.GetArrayLength() == 0 || value.ValueKind != JsonValueKind.String
            || !Enum.TryParse(value.GetString(), ignoreCase: false, out TEnum parsed) || !Enum.IsDefined(parsed) || char.IsDigit(value.GetString()![0]))
            throw QueryParameters.Invalid(shape);
        var names = new List<string>(list.GetArrayLength());
        foreach (JsonElement name in list.EnumerateArray())
        {
            if (name.ValueKind != JsonValueKind.String || string.IsNullOrEmpty(name.GetString()))
                throw QueryParameters.Invalid(shape);
            names.Add(name.GetString()!);
        }

        return (names, parsed);
    }

    private static void WriteStatus(Utf8JsonWriter writer, (bool Paused, List<(string Name, IndexRunStatus Status)> Indexes) state)
    {
        writer.WriteStartObject();
        writer.WriteString("Status"u8, state.Paused ? "Paused" : "Running");
        writer.WriteStartArray("Indexes"u8);
        foreach ((string name, IndexRunStatus status) in state.Indexes)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, name);
            writer.WriteString("Status"u8, status.ToString());
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static void WriteErrors(Utf8JsonWriter writer, List<DocumentIndex> indexes)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        foreach (DocumentIndex index in indexes)
        {
            writer.WriteStartObject();
            writer.WriteString("Name"u8, index.Name);
            writer.WriteStartArray("Errors"u8);
            foreach (Folio.Indexing.Runner.IndexError error in index.Errors.Recent)
            {
                writer.WriteStartObject();
                writer.WriteString("Timestamp"u8, error.At);
                writer.WriteString("Document"u8, error.DocumentId);
                writer.WriteString("Action"u8, "Map");
                writer.WriteString("Error"u8, error.Message);
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    private static FolioHttpException NotFound(string name) =>
        new(StatusCodes.Status404NotFound, "Index not found", $"There is no index named '{name}'.", ProblemTypes.IndexNotFound);
}
