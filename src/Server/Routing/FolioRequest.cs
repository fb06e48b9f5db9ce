namespace Folio.Server.Routing;

/// <summary>
/// What a handler receives: the HTTP context plus the <c>{db}</c> segment captured by the router.
/// A struct that keeps the segment as a range of the path, so routing allocates nothing; call
/// <see cref="Database"/> only when a string is really needed.
/// </summary>
public readonly struct FolioRequest
{
    private readonly string _path;
    private readonly int _databaseStart;
    private readonly int _databaseLength;

    /// <summary>Wraps a routed request.</summary>
    /// <param name="context">The HTTP context.</param>
    /// <param name="path">The request path the router matched.</param>
    /// <param name="databaseStart">Index of the <c>{db}</c> segment in <paramref name="path"/>.</param>
    /// <param name="databaseLength">Length of the <c>{db}</c> segment; 0 when the route has none.</param>
    public FolioRequest(HttpContext context, string path, int databaseStart, int databaseLength)
    {
        Context = context;
        _path = path;
        _databaseStart = databaseStart;
        _databaseLength = databaseLength;
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
}
