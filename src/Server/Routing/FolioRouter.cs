namespace Folio.Server.Routing;

/// <summary>
/// Folio's route table, built once at start by <see cref="RouteTableBuilder"/> and read-only after.
/// </summary>
/// <remarks>
/// <para>
/// <b>Templates.</b> A template starts with '/' and is segments separated by '/', none empty, with no
/// trailing '/' (except <c>/</c> itself). A segment is one of:
/// fixed text (ASCII letters, digits and <c>-_.~</c>), matched ignoring case;
/// <c>{name}</c>, a parameter that captures one whole, non-empty segment;
/// <c>{*name}</c>, a catch-all that captures the rest of the path, '/' included, possibly nothing
/// (<c>/studio/{*path}</c> matches <c>/studio</c>, <c>/studio/</c> and <c>/studio/css/site.css</c>); only the last segment may be one.
/// A parameter name starts with a letter and goes on with letters, digits and '_'; names are unique in a
/// template, ignoring case; <c>{db}</c> is the database segment (<see cref="FolioRequest.DatabaseSpan"/>).
/// Constraints, defaults, optional parameters and text around a parameter in one segment are refused,
/// as is anything else malformed: <see cref="RouteTableBuilder.Add"/> throws, so the server does not start.
/// </para>
/// <para>
/// <b>Precedence.</b> Routes are compared segment by segment from the left: fixed text beats a parameter,
/// and a parameter beats a catch-all; the first route in that order that matches the whole path wins. So a
/// fixed route beats a parameter route that also fits (<c>/databases/stats</c> over <c>/databases/{db}</c>),
/// <c>/a/b/{x}</c> beats <c>/a/{x}/c</c> for <c>/a/b/c</c>, and a catch-all only gets paths no more specific
/// route takes (<c>/studio/assets/{*path}</c> over <c>/studio/{*path}</c>). A less specific route is tried
/// when a more specific one fails to match further on (<c>/a/b/{x}</c> does not take <c>/a/b/c/d</c>, so
/// <c>/a/{x}/c/d</c> may). The method is chosen after the path: when the most specific path has no handler
/// for it, the answer is 405 with that path's Allow header, never a less specific route that has one.
/// Templates that match the same paths (they differ only in case or in parameter names) are one path:
/// they must name their parameters alike, and one method may be declared once per path.
/// </para>
/// <para>
/// <b>Paths.</b> The path is matched as Kestrel decoded it, so <c>%2D</c> in a segment is a '-'; an
/// encoded '/' (<c>%2F</c>) stays encoded, so it never splits a segment. As <c>%25</c> is decoded, a value
/// holding <c>%2F</c> may have been sent as <c>%2F</c> or as <c>%252F</c>: a handler that must tell them
/// apart (a name with '/' in it) reads the raw request target instead. One trailing '/' is ignored and
/// an empty path is <c>/</c>. Parameter values keep the request's case.
/// </para>
/// <para>
/// <b>Cost.</b> A lookup is one case-insensitive frozen-dictionary probe of the path for fixed routes;
/// otherwise, per parameter, the fixed prefixes that can precede it at that point are compared in turn
/// when there are at most four (the root usually has one), else looked up once per '/' the path has within
/// the longest of them, and then the text after the parameter is probed once. The <c>{db}</c> range is
/// taken while matching. It depends on the path, not on the number of routes, and allocates nothing: keys
/// are compared as spans of the request path.
/// </para>
/// </remarks>
public sealed class FolioRouter
{
    private readonly RouteNode _root;

    internal FolioRouter(RouteNode root, IReadOnlyList<RouteDeclaration> routes)
    {
        _root = root;
        Routes = routes;
    }

    /// <summary>Number of method-and-template pairs registered (HEAD fallbacks not counted).</summary>
    public int RouteCount => Routes.Count;

    /// <summary>Every method-and-template pair registered, in the order added (HEAD fallbacks not listed).</summary>
    public IReadOnlyList<RouteDeclaration> Routes { get; }

    /// <summary>Finds the route for a request.</summary>
    /// <param name="method">HTTP method.</param>
    /// <param name="path">Decoded request path; one trailing '/' is ignored.</param>
    /// <returns>The match; its database range indexes into <paramref name="path"/>.</returns>
    public RouteMatch Match(string method, string path)
    {
        ReadOnlySpan<char> span = RoutePath.Normalize(path);
        Range database = default;
        if (!_root.TryMatch(span, ref database, out RouteBucket? bucket))
            return default;

        int slot = HttpMethodSlots.IndexOf(method);
        FolioRequestHandler? handler = slot < 0 ? null : bucket.HandlerAt(slot);
        if (handler is null)
            return new RouteMatch(RouteMatchKind.MethodNotAllowed, bucket, null, RouteAccess.Unclassified, 0, 0);

        (int start, int length) = database.GetOffsetAndLength(span.Length);
        return new RouteMatch(RouteMatchKind.Found, bucket, handler, bucket.AccessAt(slot), start, length);
    }
}
