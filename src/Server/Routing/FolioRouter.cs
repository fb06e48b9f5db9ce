using System.Collections.Frozen;

namespace Folio.Server.Routing;

/// <summary>
/// Folio's route table, built once at start by <see cref="RouteTableBuilder"/> and read-only after.
/// A lookup is one case-insensitive frozen-dictionary probe for fixed paths, or, for <c>{db}</c>
/// routes, a prefix check per distinct prefix (one in practice) plus one probe on the text after the
/// database segment. Its cost depends on the path's length, not on the number of routes, and it
/// allocates nothing: keys are compared as spans of the request path.
/// </summary>
public sealed class FolioRouter
{
    private readonly FrozenDictionary<string, RouteBucket>.AlternateLookup<ReadOnlySpan<char>> _fixed;
    private readonly RoutePrefixGroup[] _groups;

    internal FolioRouter(Dictionary<string, RouteBucket> fixedRoutes, RoutePrefixGroup[] groups, int routeCount)
    {
        _fixed = fixedRoutes.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase).GetAlternateLookup<ReadOnlySpan<char>>();
        _groups = groups;
        RouteCount = routeCount;
    }

    /// <summary>Number of method-and-template pairs registered (HEAD fallbacks not counted).</summary>
    public int RouteCount { get; }

    /// <summary>Finds the route for a request.</summary>
    /// <param name="method">HTTP method.</param>
    /// <param name="path">Decoded request path; one trailing '/' is ignored.</param>
    /// <returns>The match; its database range indexes into <paramref name="path"/>.</returns>
    public RouteMatch Match(string method, string path)
    {
        ReadOnlySpan<char> span = path.AsSpan();
        if (span.Length > 1 && span[^1] == '/')
            span = span[..^1];
        if (span.IsEmpty)
            span = "/";

        if (_fixed.TryGetValue(span, out RouteBucket? bucket))
            return Select(bucket, method, 0, 0);

        RoutePrefixGroup[] groups = _groups;
        for (int i = 0; i < groups.Length; i++)
        {
            RoutePrefixGroup group = groups[i];
            string prefix = group.Prefix;
            if (span.Length <= prefix.Length || !span.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
                continue;

            ReadOnlySpan<char> rest = span[prefix.Length..];
            int slash = rest.IndexOf('/');
            int databaseLength = slash < 0 ? rest.Length : slash;
            if (databaseLength > 0 && group.TryGetBucket(rest[databaseLength..], out bucket))
                return Select(bucket, method, prefix.Length, databaseLength);
        }

        return default;
    }

    private static RouteMatch Select(RouteBucket bucket, string method, int databaseStart, int databaseLength)
    {
        int slot = HttpMethodSlots.IndexOf(method);
        FolioRequestHandler? handler = slot < 0 ? null : bucket.HandlerAt(slot);
        return handler is null
            ? new RouteMatch(RouteMatchKind.MethodNotAllowed, bucket, null, 0, 0)
            : new RouteMatch(RouteMatchKind.Found, bucket, handler, databaseStart, databaseLength);
    }
}
