using System.Globalization;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Hosting;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.RavenProtocol;

/// <summary>
/// Where the seeds' clients open their TCP connections (a subscription worker asks before each connection):
/// <c>{"Url":"tcp://host:port","Urls":[…],"Certificate":null,"NodeTag":"A","ServerId"}</c>, the host being the one the
/// client reached this server at and the port the subscriptions' listener's.
/// </summary>
internal sealed class TcpInfoHandler
{
    private static readonly string s_serverId = Guid.NewGuid().ToString();

    private readonly DatabaseRegistry _databases;
    private readonly ListenEndpoints _endpoints;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Checks a database a request names.</param>
    /// <param name="endpoints">The listeners, whose TCP port is known once the server started.</param>
    /// <param name="options">The configured TCP port, until then.</param>
    public TcpInfoHandler(DatabaseRegistry databases, ListenEndpoints endpoints, ServerOptions options)
    {
        _databases = databases;
        _endpoints = endpoints;
        _options = options;
    }

    /// <summary><c>GET /info/tcp?tcp=</c>: the TCP address.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/info/tcp", Access = RouteAccess.Authenticated)]
    public async ValueTask ServerTcp(FolioRequest request) =>
        await JsonResponse.WriteAsync(request.Response, TcpUrl(request.Request), WriteInfo, request.Aborted);

    /// <summary><c>GET /databases/{db}/info/tcp</c>: the TCP address; 404 when the database does not exist.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/databases/{db}/info/tcp", Access = RouteAccess.DatabaseRead)]
    public async ValueTask DatabaseTcp(FolioRequest request)
    {
        using (_databases.Lease(request.DatabaseSpan))
        {
            // The lease only proves the database exists.
        }

        await JsonResponse.WriteAsync(request.Response, TcpUrl(request.Request), WriteInfo, request.Aborted);
    }

    /// <summary>
    /// <c>GET /info/remote-task/tcp?database=&amp;remote-task=&amp;verify-database=</c>: the TCP address for a task of a
    /// database (a subscription worker's); with <c>verify-database=true</c>, 404 when the database does not exist.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/info/remote-task/tcp", Access = RouteAccess.Authenticated)]
    public async ValueTask RemoteTaskTcp(FolioRequest request)
    {
        string database = QueryParameters.Required(request.Request, "database");
        QueryParameters.Required(request.Request, "remote-task");
        if (QueryParameters.Optional(request.Request, "verify-database") is { } verify && bool.TryParse(verify, out bool check) && check)
        {
            DatabaseName.Validate(database);
            if (!_databases.TryGet(database, out _))
                throw new FolioHttpException(StatusCodes.Status404NotFound, "Database not found", $"There is no database named '{database}'.", ProblemTypes.DatabaseNotFound);
        }

        await JsonResponse.WriteAsync(request.Response, TcpUrl(request.Request), WriteInfo, request.Aborted);
    }

    private string TcpUrl(HttpRequest request)
    {
        int port = _endpoints.Tcp?.IPEndPoint?.Port is { } bound and > 0 ? bound : _options.TcpPort;
        string host = request.Host.Host;
        if (host.Contains(':', StringComparison.Ordinal) && !host.StartsWith('['))
            host = "[" + host + "]";
        return "tcp://" + host + ":" + port.ToString(CultureInfo.InvariantCulture);
    }

    private static void WriteInfo(Utf8JsonWriter writer, string url)
    {
        writer.WriteStartObject();
        writer.WriteString("Url"u8, url);
        writer.WriteStartArray("Urls"u8);
        writer.WriteStringValue(url);
        writer.WriteEndArray();
        // The clients pin a server certificate given here; they then connect over TLS only with a client certificate.
        writer.WriteNull("Certificate"u8);
        writer.WriteString("NodeTag"u8, NodeTopologyHandler.NodeTag);
        writer.WriteString("ServerId"u8, s_serverId);
        writer.WriteEndObject();
    }
}
