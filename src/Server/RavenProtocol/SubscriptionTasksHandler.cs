using System.Globalization;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;
using Folio.Server.Subscriptions;
using Folio.Storage.Documents;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// The seeds' clients' "ongoing tasks" routes, for the one kind of task Folio has: data subscriptions (a task's key is
/// the subscription's id, its name the subscription's name). Other kinds (ETL, backups, replication) are refused.
/// </summary>
internal sealed class SubscriptionTasksHandler
{
    private const string SubscriptionType = "Subscription";

    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public SubscriptionTasksHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>
    /// <c>GET /task?type=Subscription&amp;taskName=</c> (or <c>&amp;key=</c> the id): the subscription as an ongoing task
    /// (<c>{"TaskId","TaskName","TaskType","TaskState","Disabled","ResponsibleNode",…}</c>); 404 when there is none.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/task", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Task(FolioRequest request)
    {
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            Subscription subscription = Find(request, lease.Database)
                ?? throw new FolioHttpException(StatusCodes.Status404NotFound, "Task not found", "There is no subscription with that name or key.", ProblemTypes.Generic);
            JsonResponse.Write(request.Response, (subscription, lease.Database, Url: NodeTopologyHandler.NodeUrl(request.Request)), static (w, s) => WriteTask(w, s.subscription, s.Database, s.Url));
        }

        await request.Response.BodyWriter.FlushAsync(request.Aborted);
    }

    /// <summary>
    /// <c>POST /admin/tasks/state?type=Subscription&amp;disable=true|false&amp;taskName=</c> (or <c>&amp;key=</c>): disables
    /// (ending its worker's session) or enables a subscription; <c>{"TaskId","RaftCommandIndex"}</c>.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("POST", "/databases/{db}/admin/tasks/state", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask State(FolioRequest request)
    {
        string disable = QueryParameters.Required(request.Request, "disable");
        if (!bool.TryParse(disable, out bool disabled))
            throw QueryParameters.Invalid($"The query parameter 'disable' must be true or false; it is '{disable}'.");
        long id;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            Subscription subscription = Find(request, lease.Database)
                ?? throw new FolioHttpException(StatusCodes.Status404NotFound, "Subscription not found", "There is no subscription with that name or key.", ProblemTypes.SubscriptionNotFound);
            lease.Database.Subscriptions.SetDisabled(subscription, disabled);
            id = subscription.Id;
        }

        await JsonResponse.WriteAsync(request.Response, id, static (w, id) =>
        {
            w.WriteStartObject();
            w.WriteNumber("TaskId"u8, id);
            w.WriteNumber("RaftCommandIndex"u8, 0);
            w.WriteEndObject();
        }, request.Aborted);
    }

    /// <summary>The subscription <c>taskName</c> names, else the one whose id is <c>key</c>; 400 for another task type or neither.</summary>
    private static Subscription? Find(FolioRequest request, Database database)
    {
        string type = QueryParameters.Required(request.Request, "type");
        if (type != SubscriptionType)
            throw QueryParameters.Invalid($"Folio's only ongoing tasks are subscriptions (type=Subscription); '{type}' tasks do not exist here.");
        if (QueryParameters.Optional(request.Request, "taskName") is { Length: > 0 } name)
            return database.Subscriptions.Get(name);
        string key = QueryParameters.Required(request.Request, "key");
        if (!long.TryParse(key, NumberStyles.None, CultureInfo.InvariantCulture, out long id))
            throw QueryParameters.Invalid($"The query parameter 'key' must be a subscription's id (a whole number); it is '{key}'.");
        return database.Subscriptions.Get(id);
    }

    private static void WriteTask(Utf8JsonWriter writer, Subscription subscription, Database database, string nodeUrl)
    {
        long acknowledged = subscription.AcknowledgedEtag;
        writer.WriteStartObject();
        writer.WriteNumber("TaskId"u8, subscription.Id);
        writer.WriteString("TaskName"u8, subscription.Name);
        writer.WriteString("TaskType"u8, SubscriptionType);
        writer.WriteString("TaskState"u8, subscription.Disabled ? "Disabled"u8 : "Enabled"u8);
        writer.WriteString("TaskConnectionStatus"u8, subscription.Worker is null ? "NotActive"u8 : "Active"u8);
        writer.WriteStartObject("ResponsibleNode"u8);
        writer.WriteString("NodeTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteString("NodeUrl"u8, nodeUrl);
        writer.WriteEndObject();
        writer.WriteNull("MentorNode"u8);
        writer.WriteNumber("SubscriptionId"u8, subscription.Id);
        writer.WriteString("SubscriptionName"u8, subscription.Name);
        writer.WriteString("Query"u8, subscription.Query);
        writer.WriteBoolean("Disabled"u8, subscription.Disabled);
        if (acknowledged > 0)
            writer.WriteString("ChangeVectorForNextBatchStartingPoint"u8, ChangeVector.ToString(acknowledged, database.DatabaseIdBytes));
        else
            writer.WriteNull("ChangeVectorForNextBatchStartingPoint"u8);
        if (subscription.LastAcknowledgedAt is { } acked)
            writer.WriteString("LastBatchAckTime"u8, acked);
        else
            writer.WriteNull("LastBatchAckTime"u8);
        if (subscription.LastConnectedAt is { } connected)
            writer.WriteString("LastClientConnectionTime"u8, connected);
        else
            writer.WriteNull("LastClientConnectionTime"u8);
        writer.WriteEndObject();
    }
}
