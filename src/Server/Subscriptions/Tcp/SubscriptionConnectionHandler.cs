using Folio.Server.Configuration;
using Folio.Server.Databases;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// The TCP listener's connections (<see cref="ServerOptions.TcpPort"/>): each is one worker of one subscription, speaking
/// the line protocol of docs/tcp-protocol.md through a <see cref="SubscriptionSession"/>.
/// </summary>
internal sealed class SubscriptionConnectionHandler(DatabaseRegistry databases, ServerOptions options, Security.Authenticator authenticator, IHostApplicationLifetime lifetime, ILogger<SubscriptionConnectionHandler> logger) : ConnectionHandler
{
    public override async Task OnConnectedAsync(ConnectionContext connection)
    {
        var session = new SubscriptionSession(connection, databases, options.Subscriptions, authenticator, logger, lifetime.ApplicationStopping);
        try
        {
            await session.RunAsync();
        }
        catch (Exception ex) when (ex is OperationCanceledException or ConnectionResetException or IOException or ObjectDisposedException)
        {
            SubscriptionLog.SessionEnded(logger, session.Name ?? "(none)", ex.Message);
        }
    }
}
