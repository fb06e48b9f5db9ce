namespace Folio.Server.Routing;

/// <summary>Result of <see cref="FolioRouter.Match"/>; a struct so a lookup allocates nothing.</summary>
public readonly struct RouteMatch
{
    internal RouteMatch(RouteMatchKind kind, RouteBucket? bucket, FolioRequestHandler? handler, RouteAccess access, int databaseStart, int databaseLength)
    {
        Access = access;
        Kind = kind;
        Bucket = bucket;
        Handler = handler;
        DatabaseStart = databaseStart;
        DatabaseLength = databaseLength;
    }

    /// <summary>Whether and how the request matched.</summary>
    public RouteMatchKind Kind { get; }

    /// <summary>The routes sharing the matched path, when the path matched.</summary>
    public RouteBucket? Bucket { get; }

    /// <summary>The handler to run, when <see cref="Kind"/> is <see cref="RouteMatchKind.Found"/>.</summary>
    public FolioRequestHandler? Handler { get; }

    /// <summary>What the found route requires of a caller (see <see cref="FolioRouteAttribute.Access"/>).</summary>
    public RouteAccess Access { get; }

    /// <summary>Index of the captured <c>{db}</c> segment in the path; 0 unless found.</summary>
    public int DatabaseStart { get; }

    /// <summary>Length of the captured <c>{db}</c> segment; 0 when the route has none or was not found.</summary>
    public int DatabaseLength { get; }
}
