using System.Net.WebSockets;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Monitoring;
using Folio.Server.Routing;

namespace Folio.Server.Changes;

/// <summary>
/// <c>GET /databases/{db}/changes</c>: document and index changes as a WebSocket (<see cref="ChangesWebSocket"/>),
/// or document changes over plain HTTP for any language (<see cref="HttpChangesFeed"/>). A feed holds a lease on
/// the database only while it reads, so it never keeps a delete or a shutdown waiting; both end it.
/// </summary>
public sealed class ChangesHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;
    private readonly ILogger<ChangesHandler> _logger;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the page cap and the feed's settings.</param>
    /// <param name="logger">Where WebSocket sessions log.</param>
    public ChangesHandler(DatabaseRegistry databases, ServerOptions options, ILogger<ChangesHandler> logger)
    {
        _databases = databases;
        _options = options;
        _logger = logger;
    }

    /// <summary>
    /// A WebSocket upgrade starts a changes socket; otherwise <c>?since=&amp;feed=normal|longpoll|continuous&amp;limit=
    /// &amp;timeout=&amp;heartbeat=&amp;includeDocs=&amp;id=&amp;prefix=&amp;collection=</c> answers the HTTP feed.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the feed ends.</returns>
    [FolioRoute("GET", "/databases/{db}/changes", Access = RouteAccess.DatabaseRead)]
    public async ValueTask Get(FolioRequest request)
    {
        Database database;
        DatabaseListener listening;
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            database = lease.Database;
            // Registered before the lease goes back, so no idle unload slips in between.
            listening = database.Listen();
        }

        using DatabaseListener listener = listening;

        if (request.Context.WebSockets.IsWebSocketRequest)
        {
            LongRunningRequest.Mark(request.Context);
            using WebSocket socket = await request.Context.WebSockets.AcceptWebSocketAsync();
            await new ChangesWebSocket(socket, database, _options.Changes, _logger).RunAsync(request.Aborted);
            return;
        }

        FeedRequest feed = FeedRequest.Parse(request.Request, _options.Changes, _options.MaxPageSize);
        if (feed.Mode != FeedMode.Normal)
            LongRunningRequest.Mark(request.Context);
        await HttpChangesFeed.RunAsync(request.Context, database, feed);
    }
}
