using Folio.Server.Configuration;
using Folio.Server.Databases;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// The TCP listener's connections (<see cref="ServerOptions.TcpPort"/>): each is one worker of one subscription. The first
/// message says which protocol it speaks: the seeds' clients open with a header naming an <c>Operation</c>
/// (<see cref="SeedsSubscriptionSession"/>); anything else is Folio's line protocol of docs/tcp-protocol.md
/// (<see cref="SubscriptionSession"/>), which also answers bytes that are not JSON.
/// </summary>
internal sealed class SubscriptionConnectionHandler(DatabaseRegistry databases, ServerOptions options, Security.Authenticator authenticator, IHostApplicationLifetime lifetime, ILogger<SubscriptionConnectionHandler> logger) : ConnectionHandler
{
    private const int MaxFirstMessageBytes = 64 * 1024;

    public override async Task OnConnectedAsync(ConnectionContext connection)
    {
        string? name = null;
        try
        {
            var first = new JsonValueReader(connection.Transport.Input, MaxFirstMessageBytes);
            switch (await first.PeekFirstAsync(connection.ConnectionClosed))
            {
                case JsonValueReader.FirstValue.SeedsHeader:
                    var seeds = new SeedsSubscriptionSession(connection, databases, options.Subscriptions, authenticator, logger, lifetime.ApplicationStopping);
                    try
                    {
                        await seeds.RunAsync();
                    }
                    finally
                    {
                        name = seeds.Name;
                    }

                    break;
                case JsonValueReader.FirstValue.Other:
                    var session = new SubscriptionSession(connection, databases, options.Subscriptions, authenticator, logger, lifetime.ApplicationStopping);
                    try
                    {
                        await session.RunAsync();
                    }
                    finally
                    {
                        name = session.Name;
                    }

                    break;
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or ConnectionResetException or IOException or ObjectDisposedException or InvalidDataException)
        {
            SubscriptionLog.SessionEnded(logger, name ?? "(none)", ex.Message);
        }
    }
}
