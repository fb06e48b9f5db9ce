using System.Net.Sockets;

namespace Folio.Server.Tests.Support;

/// <summary>What a request in flight can throw when the server process under it is killed.</summary>
internal static class ConnectionCut
{
    /// <summary>
    /// True when <paramref name="e"/> says the connection ended without an answer. Besides the usual
    /// <see cref="HttpRequestException"/> and <see cref="IOException"/>, <see cref="HttpClient"/> lets a bare
    /// <see cref="SocketException"/> out when the peer dies between the connect and reading the socket's remote end
    /// (seen in CI: "Transport endpoint is not connected" from <c>Socket.RemoteEndPoint</c>).
    /// </summary>
    public static bool IsCut(Exception e) =>
        e is HttpRequestException or IOException or SocketException or OperationCanceledException or ObjectDisposedException;
}
