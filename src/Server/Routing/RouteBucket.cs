namespace Folio.Server.Routing;

/// <summary>
/// All routes that share one path template, one handler slot per HTTP method. The router finds a
/// bucket by path, then picks the handler by method, so a 405 with its Allow header comes for free.
/// Templates that differ only in the case of their fixed text share a bucket.
/// </summary>
public sealed class RouteBucket
{
    private readonly FolioRequestHandler?[] _handlers = new FolioRequestHandler?[HttpMethodSlots.Count];
    private readonly RouteAccess[] _access = new RouteAccess[HttpMethodSlots.Count];

    internal RouteBucket(RouteTemplate route)
    {
        Route = route;
    }

    /// <summary>The path template the routes share, as the first of them declared it.</summary>
    public string Template => Route.Text;

    /// <summary>Value of the Allow header for this path, e.g. <c>GET, HEAD</c>.</summary>
    public string Allow { get; private set; } = string.Empty;

    /// <summary>The parsed template: its parameters and where they lie in a path.</summary>
    internal RouteTemplate Route { get; }

    internal FolioRequestHandler? HandlerAt(int slot) => _handlers[slot];

    internal RouteAccess AccessAt(int slot) => _access[slot];

    internal void Set(int slot, FolioRequestHandler handler, RouteAccess access)
    {
        if (_handlers[slot] is not null)
            throw new InvalidOperationException($"Route {HttpMethodSlots.NameOf(slot)} {Template} is declared twice.");
        _handlers[slot] = handler;
        _access[slot] = access;
    }

    /// <summary>Completes the bucket once every route is added.</summary>
    internal void Seal()
    {
        // HEAD is GET without a body; Kestrel drops the body, so reusing the GET handler is correct.
        if (_handlers[HttpMethodSlots.Head] is null && _handlers[HttpMethodSlots.Get] is not null)
        {
            _handlers[HttpMethodSlots.Head] = _handlers[HttpMethodSlots.Get];
            _access[HttpMethodSlots.Head] = _access[HttpMethodSlots.Get];
        }

        var allowed = new List<string>(HttpMethodSlots.Count);
        for (int slot = 0; slot < HttpMethodSlots.Count; slot++)
        {
            if (_handlers[slot] is not null)
                allowed.Add(HttpMethodSlots.NameOf(slot));
        }

        Allow = string.Join(", ", allowed);
    }
}
