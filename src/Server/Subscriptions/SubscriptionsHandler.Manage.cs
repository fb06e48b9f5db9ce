using System.Globalization;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Subscriptions;

/// <summary>Inspecting one subscription, changing its definition, and letting its worker go, as the seeds' clients ask for them.</summary>
public sealed partial class SubscriptionsHandler
{
    /// <summary><c>GET /subscriptions/state?name=</c>: one subscription's state (as <c>GET ?name=</c>); 404 when there is none.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/subscriptions/state", Access = RouteAccess.DatabaseRead)]
    public async ValueTask State(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            Subscription one = lease.Database.Subscriptions.Get(name) ?? throw NotFound(name);
            JsonResponse.Write(request.Response, (one, lease.Database), static (w, s) => Write(w, s.one, s.Database));
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary>
    /// <c>POST /subscriptions/update</c> <c>{"Id","Name","Query","ChangeVector","Disabled","CreateNew"}</c>: finds the subscription
    /// by <c>Id</c> when given, else by <c>Name</c>; replaces its query and, with a <c>ChangeVector</c> (<c>BeginningOfTime</c>,
    /// <c>LastDocument</c> or one of this database's), where it resumes; its worker reconnects to the new definition.
    /// <c>{"Name","RaftCommandIndex"}</c>; 404 when there is none and <c>CreateNew</c> is not true (then it is created).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/subscriptions/update", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Update(FolioRequest request)
    {
        using JsonDocument body = await JsonBody.ParseAsync(request.Request, _options, request.Aborted);
        JsonElement root = body.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
            throw Invalid("The body must be an object {\"Id\",\"Name\",\"Query\",\"ChangeVector\",\"Disabled\",\"CreateNew\"}.");
        long? id = root.TryGetProperty("Id", out JsonElement given) && given.ValueKind != JsonValueKind.Null
            ? given.ValueKind == JsonValueKind.Number && given.TryGetInt64(out long number) && number > 0 ? number : throw Invalid("'Id' must be a whole number from 1.")
            : null;
        string? name = OptionalString(root, "Name");
        string? query = OptionalString(root, "Query");
        if (id is null && name is null)
            throw Invalid("'Id' or 'Name' names the subscription to update.");

        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        SubscriptionStore store = lease.Database.Subscriptions;
        Subscription? subscription = id is { } byId ? store.Get(byId) : store.Get(name!);
        if (subscription is null)
        {
            if (!(root.TryGetProperty("CreateNew", out JsonElement createNew) && createNew.ValueKind == JsonValueKind.True))
                throw NotFound(id is { } missing ? missing.ToString(CultureInfo.InvariantCulture) : name!);
            subscription = store.Create(name, query ?? throw Invalid("'Query' is required to create a subscription."), StartFrom(root, lease.Database) ?? "Beginning");
        }
        else
        {
            string? startFrom = StartFrom(root, lease.Database);
            if ((query is not null && query != subscription.Query) || startFrom is not null)
                store.Update(subscription, query ?? subscription.Query, startFrom);
        }

        if (root.TryGetProperty("Disabled", out JsonElement disabled) && disabled.ValueKind is JsonValueKind.True or JsonValueKind.False && disabled.GetBoolean() != subscription.Disabled)
            store.SetDisabled(subscription, disabled.GetBoolean());

        JsonResponse.Write(request.Response, subscription.Name, static (w, name) =>
        {
            w.WriteStartObject();
            w.WriteString("Name"u8, name);
            w.WriteNumber("RaftCommandIndex"u8, 0);
            w.WriteEndObject();
        });
        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary>
    /// <c>POST /subscriptions/drop?name=</c>: ends the connected worker's session (it is told the connection was closed and
    /// does not reconnect); 204 whether or not one was connected, 404 when there is no such subscription.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when done.</returns>
    [FolioRoute("POST", "/databases/{db}/subscriptions/drop", Access = RouteAccess.DatabaseWrite)]
    public ValueTask Drop(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        using DatabaseLease lease = _databases.Lease(request.DatabaseSpan);
        Subscription subscription = lease.Database.Subscriptions.Get(name) ?? throw NotFound(name);
        SubscriptionStore.Drop(subscription);
        request.Response.StatusCode = StatusCodes.Status204NoContent;
        return ValueTask.CompletedTask;
    }

    /// <summary>Where an update restarts the subscription: null to leave it, else a start <see cref="SubscriptionStore.Create"/> reads.</summary>
    private static string? StartFrom(JsonElement root, Database database)
    {
        if (!root.TryGetProperty("ChangeVector", out JsonElement vector) || vector.ValueKind == JsonValueKind.Null)
            return null;
        if (vector.ValueKind != JsonValueKind.String)
            throw Invalid("'ChangeVector' must be a string: \"DoNotChange\", \"BeginningOfTime\", \"LastDocument\" or a change vector of this database.");
        string text = vector.GetString()!;
        return text switch
        {
            "" or "DoNotChange" => null,
            "BeginningOfTime" => "Beginning",
            "LastDocument" => "Now",
            _ when ChangeVector.TryParse(text, database.DatabaseIdBytes, out long etag) => etag.ToString(CultureInfo.InvariantCulture),
            _ => throw Invalid($"'ChangeVector' '{text}' is not a change vector of this database."),
        };
    }

    private static string? OptionalString(JsonElement root, string name) =>
        !root.TryGetProperty(name, out JsonElement value) || value.ValueKind == JsonValueKind.Null ? null
        : value.ValueKind == JsonValueKind.String && value.GetString()!.Length > 0 ? value.GetString()
        : throw Invalid($"'{name}' must be a non-empty string.");
}
