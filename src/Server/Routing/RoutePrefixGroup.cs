using System.Diagnostics.CodeAnalysis;

namespace Folio.Server.Routing;

/// <summary>
/// The routes that continue after one fixed prefix (e.g. <c>/databases</c>) with a parameter: those
/// that take the next segment as a <c>{name}</c> and go on in <see cref="Child"/>, and the one catch-all
/// that takes everything after the prefix. Every database's requests for one template land in the same
/// bucket, so the table stays as small as the number of templates whatever the traffic.
/// </summary>
internal sealed class RoutePrefixGroup
{
    private readonly int _depth;

    public RoutePrefixGroup(int depth, RouteNode? child, RouteBucket? catchAll)
    {
        _depth = depth;
        Child = child;
        CatchAll = catchAll;
    }

    /// <summary>Routes whose next segment is a parameter, or null.</summary>
    public RouteNode? Child { get; }

    /// <summary>The route whose catch-all follows the prefix, or null.</summary>
    public RouteBucket? CatchAll { get; }

    /// <summary>Matches what follows the prefix; a parameter segment is tried before the catch-all because it is more specific.</summary>
    /// <param name="after">The path after the prefix: empty, or starting with '/'.</param>
    /// <param name="database">Set to the <c>{db}</c> segment, counted from the path's end, when this group's parameter is the matched route's <c>{db}</c>.</param>
    /// <param name="bucket">The routes of the matched template.</param>
    /// <returns>Whether a route matches.</returns>
    public bool TryMatch(ReadOnlySpan<char> after, ref Range database, [NotNullWhen(true)] out RouteBucket? bucket)
    {
        if (Child is not null && after.Length > 1)
        {
            ReadOnlySpan<char> segmentOn = after[1..];
            int slash = segmentOn.IndexOf('/');
            int segmentLength = slash < 0 ? segmentOn.Length : slash;
            if (segmentLength > 0 && Child.TryMatch(segmentOn[segmentLength..], ref database, out bucket))
            {
                // Every span matched is a suffix of the path, so positions from its end need no offsets passed down.
                if (bucket.Route.DatabaseIndex == _depth)
                    database = new Range(^segmentOn.Length, ^(segmentOn.Length - segmentLength));
                return true;
            }
        }

        bucket = CatchAll;
        return bucket is not null;
    }
}
