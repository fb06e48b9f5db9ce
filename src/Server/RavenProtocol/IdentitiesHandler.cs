using System.Globalization;
using System.Text.Json;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Identities as the seeds' system's clients reach them: the durable per-prefix counters behind ids a client leaves
/// to the server (<c>users|</c> becomes <c>users/1</c>), kept in the database's storage
/// (<see cref="Folio.Storage.Documents.DocumentStore.NextIdentityAsync"/>), so they survive restarts and concurrent
/// callers never share a value.
/// </summary>
public sealed class IdentitiesHandler
{
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    public IdentitiesHandler(DatabaseRegistry databases) => _databases = databases;

    /// <summary><c>POST /databases/{db}/identity/next?name=</c>: takes the identity's next value, <c>{"NewIdentityValue":n}</c> (1 for a new one).</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the value is durable and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/identity/next", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Next(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        long value;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            value = await lease.Database.Store.NextIdentityAsync(name);
        await JsonResponse.WriteAsync(request.Response, value, static (writer, v) =>
        {
            writer.WriteStartObject();
            writer.WriteNumber("NewIdentityValue"u8, v);
            writer.WriteEndObject();
        }, request.Aborted);
    }

    /// <summary>
    /// <c>POST /databases/{db}/identity/seed?name=&amp;value=[&amp;force=true]</c>: raises the identity to <c>value</c> (or sets it,
    /// also lower, with <c>force</c>), <c>{"NewSeedValue":n}</c> with its value afterwards.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the value is durable and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/identity/seed", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Seed(FolioRequest request)
    {
        string name = QueryParameters.Required(request.Request, "name");
        string text = QueryParameters.Required(request.Request, "value");
        if (!long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long seed))
            throw QueryParameters.Invalid("'value' must be a non-negative whole number.");
        bool force = QueryParameters.Optional(request.Request, "force") switch
        {
            null or "false" or "False" => false,
            "true" or "True" => true,
            _ => throw QueryParameters.Invalid("'force' must be true or false."),
        };
        long value;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
            value = await lease.Database.Store.SeedIdentityAsync(name, seed, force);
        await JsonResponse.WriteAsync(request.Response, value, static (writer, v) =>
        {
            writer.WriteStartObject();
            writer.WriteNumber("NewSeedValue"u8, v);
            writer.WriteEndObject();
        }, request.Aborted);
    }

    /// <summary><c>GET /databases/{db}/debug/identities</c>: every identity by name with its value, <c>{"users|":1}</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/debug/identities", Access = RouteAccess.DatabaseRead)]
    public async ValueTask List(FolioRequest request)
    {
        SortedDictionary<string, long> identities;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        using (Folio.Storage.Documents.DocumentReader reader = lease.Database.Store.OpenReader())
            identities = reader.Identities();
        await JsonResponse.WriteAsync(request.Response, identities, WriteIdentities, request.Aborted);
    }

    private static void WriteIdentities(Utf8JsonWriter writer, SortedDictionary<string, long> identities)
    {
        writer.WriteStartObject();
        foreach ((string name, long value) in identities)
            writer.WriteNumber(name, value);
        writer.WriteEndObject();
    }
}
