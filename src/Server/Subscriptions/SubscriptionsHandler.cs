using System.Globalization;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Subscriptions;

/// <summary>
/// <c>/databases/{db}/subscriptions</c>: create, list, inspect and delete data subscriptions, which workers consume over
/// TCP (docs/tcp-protocol.md).
/// </summary>
public sealed partial class SubscriptionsHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body limits.</param>
    public SubscriptionsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// <c>PUT</c> <c>{"Name","Query","StartFrom"}</c>: 201 with the subscription; 409 when the name is taken. Without a
    /// <c>Name</c> the server names it (a whole number), as the seeds' clients expect; their <c>"ChangeVector":"LastDocument"</c>
    /// starts from the next write.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("PUT", "/databases/{db}/subscriptions", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Put(FolioRequest request)
    {
        using JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted);
        JsonElement root = body.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
            throw Invalid("The body must be an object {\"Name\",\"Query\",\"StartFrom\"}.");
        string? name = root.TryGetProperty("Name", out JsonElement given) && given.ValueKind == JsonValueKind.Null ? null
            : given.ValueKind == JsonValueKind.Undefined ? null
            : RequiredString(root, "Name");
        string query = RequiredString(root, "Query");
        string? startFrom = root.TryGetProperty("StartFrom", out JsonElement start) ? start.ValueKind switch
        {
            JsonValueKind.String => start.GetString(),
            JsonValueKind.Number when start.TryGetInt64(out long etag) && etag >= 0 => etag.ToString(CultureInfo.InvariantCulture),
            JsonValueKind.Null => null,
            _ => throw Invalid("StartFrom must be \"Beginning\", \"Now\" or an etag (a whole number from 0)."),
        } : root.TryGetProperty("ChangeVector", out JsonElement vector) && vector.ValueKind == JsonValueKind.String && vector.ValueEquals("LastDocument"u8) ? "Now" : null;

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        Subscription created = lease.Database.Subscriptions.Create(name, query, startFrom);
        if (root.TryGetProperty("Disabled", out JsonElement disabled) && disabled.ValueKind == JsonValueKind.True)
            lease.Database.Subscriptions.SetDisabled(created, true);
        request.Response.StatusCode = StatusCodes.Status201Created;
        JsonResponse.Write(request.Response, (created, lease.Database), static (w, s) => Write(w, s.created, s.Database));
        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary><c>GET</c>: <c>{"Results":[…]}</c>, or with <c>?name=</c> one subscription (404 when there is none).</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/subscriptions", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        string? name = QueryParameters.Optional(request.Request, "name");
        int start = QueryParameters.NonNegativeInt32(request.Request, "start", 0);
        int pageSize = QueryParameters.NonNegativeInt32(request.Request, "pageSize", int.MaxValue);
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            if (name is not null)
            {
                Subscription one = lease.Database.Subscriptions.Get(name) ?? throw NotFound(name);
                JsonResponse.Write(request.Response, (one, lease.Database), static (w, s) => Write(w, s.one, s.Database));
            }
            else
            {
                JsonResponse.Write(request.Response, (All: lease.Database.Subscriptions.List(), lease.Database, start, pageSize), static (w, s) =>
                {
                    w.WriteStartObject();
                    w.WriteStartArray("Results"u8);
                    for (int i = s.start; i < s.All.Count && i - s.start < s.pageSize; i++)
                        Write(w, s.All[i], s.Database);
                    w.WriteEndArray();
                    w.WriteEndObject();
                });
            }
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary><c>DELETE ?name=</c> (or the seeds' clients' <c>?taskName=</c>): 204, ending the worker's session; 404 when there is none.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when deleted.</returns>
    [FolioRoute("DELETE", "/databases/{db}/subscriptions", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Delete(FolioRequest request)
    {
        string name = QueryParameters.Optional(request.Request, "taskName") ?? QueryParameters.Required(request.Request, "name");
        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        if (!lease.Database.Subscriptions.Delete(name))
            throw NotFound(name);
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    private static void Write(Utf8JsonWriter writer, Subscription subscription, Database database)
    {
        long acknowledged = subscription.AcknowledgedEtag;
        writer.WriteStartObject();
        writer.WriteString("Name"u8, subscription.Name);
        writer.WriteString("Query"u8, subscription.Query);
        writer.WriteString("Collection"u8, subscription.Matcher.Collection);
        writer.WriteNumber("AcknowledgedEtag"u8, acknowledged);
        writer.WriteNumber("EtagLag"u8, Math.Max(0, database.Store.LastEtag - acknowledged));
        writer.WriteString("CreatedAt"u8, subscription.CreatedAt);
        // The seeds' clients read a subscription's state under these names.
        writer.WriteNumber("SubscriptionId"u8, subscription.Id);
        writer.WriteString("SubscriptionName"u8, subscription.Name);
        writer.WriteBoolean("Disabled"u8, subscription.Disabled);
        if (acknowledged > 0)
            writer.WriteString("ChangeVectorForNextBatchStartingPoint"u8, ChangeVector.ToString(acknowledged, database.DatabaseIdBytes));
        else
            writer.WriteNull("ChangeVectorForNextBatchStartingPoint"u8);
        writer.WriteString("NodeTag"u8, RavenProtocol.NodeTopologyHandler.NodeTag);
        writer.WriteNull("MentorNode"u8);
        WriteTime(writer, "LastBatchAckTime"u8, subscription.LastAcknowledgedAt);
        WriteTime(writer, "LastClientConnectionTime"u8, subscription.LastConnectedAt);
        if (subscription.Worker is { } worker)
        {
            writer.WriteStartObject("Worker"u8);
            writer.WriteString("Address"u8, worker.Address);
            writer.WriteString("ConnectedAt"u8, worker.ConnectedAt);
            writer.WriteEndObject();
        }
        else
        {
            writer.WriteNull("Worker"u8);
        }

        writer.WriteEndObject();
    }

    private static void WriteTime(Utf8JsonWriter writer, ReadOnlySpan<byte> name, DateTime? time)
    {
        if (time is { } value)
            writer.WriteString(name, value);
        else
            writer.WriteNull(name);
    }

    private static string RequiredString(JsonElement root, string name) =>
        root.TryGetProperty(name, out JsonElement value) && value.ValueKind == JsonValueKind.String && value.GetString()!.Length > 0
            ? value.GetString()!
            : throw Invalid($"'{name}' is required, as a non-empty string.");

    private static FolioHttpException Invalid(string detail) =>
        new(StatusCodes.Status400BadRequest, "Invalid subscription", detail, ProblemTypes.InvalidSubscription);

    private static FolioHttpException NotFound(string name) =>
        new(StatusCodes.Status404NotFound, "Subscription not found", $"There is no subscription named '{name}'.", ProblemTypes.SubscriptionNotFound);
}
