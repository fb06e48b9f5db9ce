using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Folio.Server.Hosting;

/// <summary>The server's two listeners as Kestrel configured them: once started, their end points carry the bound ports (port 0 picks a free one).</summary>
internal sealed class ListenEndpoints
{
    /// <summary>The REST API's listener.</summary>
    public ListenOptions? Http { get; set; }

    /// <summary>The subscriptions' TCP listener.</summary>
    public ListenOptions? Tcp { get; set; }
}
