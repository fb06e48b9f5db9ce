using System.Globalization;
using System.Text.Json;
using Folio.Indexing.Querying;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.RavenProtocol;
using Folio.Server.Routing;

namespace Folio.Server.Operations;

/// <summary>
/// Patch and delete by query as tracked operations (<c>PATCH</c>/<c>DELETE /databases/{db}/queries</c>, answered 202
/// with the operation's id at once), their progress (<c>GET …/operations/state?id=</c>) and cancellation
/// (<c>POST …/operations/kill?id=</c>).
/// </summary>
public sealed class OperationsHandler(DatabaseRegistry databases, ServerOptions options, ILogger<OperationsHandler> logger)
{
    /// <summary>Starts <c>{"Query":"from … where … update { … }","QueryParameters"?}</c>; answers 202 <c>{"OperationId","OperationNodeTag"}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the operation is registered and the answer written.</returns>
    [FolioRoute("PATCH", "/databases/{db}/queries", Access = RouteAccess.DatabaseWrite)]
    public ValueTask PatchByQuery(FolioRequest request) => StartAsync(request, OperationKind.PatchByQuery);

    /// <summary>Starts <c>{"Query":"from … where …","QueryParameters"?}</c>, deleting what it selects; answers 202 <c>{"OperationId","OperationNodeTag"}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the operation is registered and the answer written.</returns>
    [FolioRoute("DELETE", "/databases/{db}/queries", Access = RouteAccess.DatabaseWrite)]
    public ValueTask DeleteByQuery(FolioRequest request) => StartAsync(request, OperationKind.DeleteByQuery);

    /// <summary>Answers the state of operation <c>?id=</c>: <c>{"Id","Kind","Query","Status","Processed","Total","Error","StartedAt","CompletedAt"}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/operations/state", Access = RouteAccess.DatabaseRead)]
    public async ValueTask State(FolioRequest request)
    {
        var id = OperationId(request);
        OperationState state;
        using (var lease = databases.Lease(request.DatabaseSpan))
            state = Find(lease.Database, id).Snapshot();
        await JsonResponse.WriteAsync(request.Response, state, OperationJson.WriteAnswer, request.Aborted);
    }

    /// <summary>Cancels operation <c>?id=</c> after its current batch (the batches committed before stay); 204, or 404 for an unknown id.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the cancellation is requested.</returns>
    [FolioRoute("POST", "/databases/{db}/operations/kill", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Kill(FolioRequest request)
    {
        var id = OperationId(request);
        using (var lease = databases.Lease(request.DatabaseSpan))
            Find(lease.Database, id).Kill();
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    private async ValueTask StartAsync(FolioRequest request, OperationKind kind)
    {
        var body = await JsonBody.ParseAsync(request.Request, options, request.Aborted);
        long id;
        try
        {
            var root = body.RootElement;
            // The seeds' clients send a patch by query's query as an object of its own: {"Query":{"Query":…,"QueryParameters":…}}.
            if (root.ValueKind == JsonValueKind.Object && root.TryGetProperty("Query", out var nested) && nested.ValueKind == JsonValueKind.Object)
                root = nested;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("Query", out var queryText) || queryText.ValueKind != JsonValueKind.String)
                throw QueryParameters.Invalid("The body must be an object with a \"Query\" string (or a \"Query\" object holding one).");
            JsonElement? parameters = root.TryGetProperty("QueryParameters", out var given) && given.ValueKind != JsonValueKind.Null ? given.Clone() : null;
            if (parameters is { ValueKind: not JsonValueKind.Object })
                throw QueryParameters.Invalid("QueryParameters must be an object of parameter names to values.");
            var text = queryText.GetString()!;
            using var lease = databases.Lease(request.DatabaseSpan);
            var database = lease.Database;
            var query = database.Queries.Parse(text);
            if (kind == OperationKind.PatchByQuery && query.Update is null)
                throw QueryParameters.Invalid("A patch by query needs update { … } after the query, e.g. from Orders where Freight > 10 update { this.Freight = 0; }.");
            if (kind == OperationKind.DeleteByQuery && (query.Update is not null || query.ScriptProjection is not null || query.Select.Count > 0))
                throw QueryParameters.Invalid("A delete by query selects documents only: no update { … } and no select.");
            if (query.Update is not null)
            {
                // A script that does not parse is the client's 400 now, not a faulted operation later.
                using var check = Indexing.Patching.DocumentPatcher.ForQuery(query, parameters, options.Scripting.ToLimits(), options.MaxJsonDepth);
            }
            // A filter that cannot run, or a filter_limit that is no count, is the client's 400 now too.
            QueryRunner.ValidateFilter(query, new QueryOptions { Parameters = parameters, ScriptLimits = options.Scripting.ToLimits() });
            var operation = database.Operations.Register(kind, text);
            id = operation.Id;
            new QueryOperationRunner(database, operation, query, parameters, options, logger).Start();
        }
        finally
        {
            body.Dispose();
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

    private static long OperationId(FolioRequest request)
    {
        var text = QueryParameters.Required(request.Request, "id");
        return long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0
            ? id
            : throw QueryParameters.Invalid($"The operation id must be a positive whole number, not '{text}'.");
    }

    private static DatabaseOperation Find(Database database, long id) =>
        database.Operations.Get(id) ?? throw new FolioHttpException(
            StatusCodes.Status404NotFound,
            "Operation not found",
            $"The database '{database.Name}' has no operation {id} (ids of the last {OperationRegistry.KeptEnded} ended operations are kept).",
            ProblemTypes.OperationNotFound);
}
