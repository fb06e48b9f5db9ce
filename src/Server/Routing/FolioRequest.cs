namespace Folio.Server.Routing;

/// <summary>
/// What a handler receives: the HTTP context plus the route values the router matched. A struct that
/// keeps the values as ranges of the path, so routing allocates nothing; call <see cref="Database"/> or
/// <c>ToString()</c> on a <see cref="RouteValue"/> only when a string is really needed.
/// </summary>
public readonly struct FolioRequest
{
    private readonly string _path;
    private readonly RouteBucket? _route;
    private readonly int _databaseStart;
    private readonly int _databaseLength;

    /// <summary>Wraps a routed request.</summary>
    /// <param name="context">The HTTP context.</param>
    /// <param name="path">The request path the router matched.</param>
    /// <param name="match">What <see cref="FolioRouter.Match"/> found for <paramref name="path"/>.</param>
    public FolioRequest(HttpContext context, string path, in RouteMatch match)
    {
        Context = context;
        _path = path;
        _route = match.Bucket;
        _databaseStart = match.DatabaseStart;
        _databaseLength = match.DatabaseLength;
    }

    /// <summary>The HTTP context.</summary>
    public HttpContext Context { get; }

    /// <summary>The HTTP request.</summary>
    public HttpRequest Request => Context.Request;

    /// <summary>The HTTP response.</summary>
    public HttpResponse Response => Context.Response;

    /// <summary>Signalled when the client disconnects.</summary>
    public CancellationToken Aborted => Context.RequestAborted;

    /// <summary>Whether the route captured a <c>{db}</c> segment.</summary>
    public bool HasDatabase => _databaseLength > 0;

    /// <summary>The <c>{db}</c> segment as it appeared in the path, without allocating.</summary>
    public ReadOnlySpan<char> DatabaseSpan => _path.AsSpan(_databaseStart, _databaseLength);

    /// <summary>The <c>{db}</c> segment as a new string (allocates), or empty when the route has none.</summary>
    public string Database => _databaseLength == 0 ? string.Empty : _path.Substring(_databaseStart, _databaseLength);

    /// <summary>
    /// The value of a <c>{name}</c> or <c>{*name}</c> parameter as it appeared in the (decoded) path,
    /// without allocating: one segment for a parameter; for a catch-all, everything after its prefix
    /// without the leading '/' (empty when nothing follows, and without a trailing '/').
    /// </summary>
    /// <param name="name">The parameter's name as the template declares it, ignoring case.</param>
    /// <returns>The value.</returns>
    /// <exception cref="ArgumentException">The matched template declares no such parameter (a handler bug).</exception>
    public ReadOnlySpan<char> RouteValue(string name)
    {
        RouteTemplate? route = _route?.Route;
        int parameter = route is null ? -1 : route.IndexOfParameter(name);
        if (parameter < 0)
            throw new ArgumentException($"The route '{route?.Text}' has no parameter '{name}'.", nameof(name));

        ReadOnlySpan<char> path = RoutePath.Normalize(_path);
        bool catchAll = route!.HasCatchAll && parameter == route.ParameterNames.Length - 1;
        (int start, int length) = RoutePath.Locate(path, route.ParameterSegments[parameter], catchAll);
        return path.Slice(start, length);
    }
}
