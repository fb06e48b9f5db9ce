using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;

namespace Folio.Server.Routing;

/// <summary>
/// The routes that share everything up to a point of the path: the root (nothing consumed yet) or the
/// end of a parameter segment. The text left to match either is a route's whole fixed remainder, found
/// with one lookup, or starts with a fixed prefix that a parameter or catch-all follows; those prefixes
/// are tried longest first: compared in turn when the node has a few, else looked up at each '/' of the
/// text. Neither depends on how many routes there are.
/// </summary>
internal sealed class RouteNode
{
    // Prefixes of 64 characters or more are rare enough to probe at every '/' instead of keeping a length set.
    private const int MaxMaskedLength = 63;

    // Up to this many prefixes (the root usually has one, /databases), comparing each costs less than a
    // lookup per '/'; past it, lookups keep the cost flat however many prefixes a node gathers.
    private const int MaxComparedPrefixes = 4;

    private readonly FrozenDictionary<string, RouteBucket>.AlternateLookup<ReadOnlySpan<char>> _exact;
    private readonly KeyValuePair<string, RoutePrefixGroup>[]? _comparedPrefixes;

    // Used only past MaxComparedPrefixes.
    private readonly FrozenDictionary<string, RoutePrefixGroup>.AlternateLookup<ReadOnlySpan<char>> _prefixes;
    private readonly int _longestPrefix;
    private readonly ulong _prefixLengths;

    private RouteNode(Dictionary<string, RouteBucket> exact, Dictionary<string, RoutePrefixGroup> prefixes)
    {
        _exact = exact.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase).GetAlternateLookup<ReadOnlySpan<char>>();
        if (prefixes.Count <= MaxComparedPrefixes)
        {
            _comparedPrefixes = [.. prefixes];
            Array.Sort(_comparedPrefixes, static (a, b) => b.Key.Length.CompareTo(a.Key.Length));
            return;
        }

        _prefixes = prefixes.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase).GetAlternateLookup<ReadOnlySpan<char>>();
        foreach (string prefix in prefixes.Keys)
        {
            _longestPrefix = Math.Max(_longestPrefix, prefix.Length);
            _prefixLengths |= 1UL << Math.Min(prefix.Length, MaxMaskedLength);
        }
    }

    /// <summary>Builds the node for routes whose first <paramref name="depth"/> one-segment parameters are consumed.</summary>
    /// <param name="buckets">Routes that all agree up to this point.</param>
    /// <param name="depth">How many one-segment parameters lie before this node.</param>
    /// <returns>The node, with its children built.</returns>
    public static RouteNode Create(IEnumerable<RouteBucket> buckets, int depth)
    {
        var exact = new Dictionary<string, RouteBucket>(StringComparer.OrdinalIgnoreCase);
        var deeper = new Dictionary<string, List<RouteBucket>>(StringComparer.OrdinalIgnoreCase);
        var catchAlls = new Dictionary<string, RouteBucket>(StringComparer.OrdinalIgnoreCase);
        foreach (RouteBucket bucket in buckets)
        {
            RouteTemplate template = bucket.Route;
            string run = template.FixedRuns[depth];
            if (template.SegmentParameterCount > depth)
            {
                if (!deeper.TryGetValue(run, out List<RouteBucket>? group))
                    deeper.Add(run, group = []);
                group.Add(bucket);
            }
            else if (template.HasCatchAll)
            {
                catchAlls.Add(run, bucket);
            }
            else
            {
                exact.Add(run, bucket);
            }
        }

        var prefixes = new Dictionary<string, RoutePrefixGroup>(StringComparer.OrdinalIgnoreCase);
        foreach (KeyValuePair<string, List<RouteBucket>> entry in deeper)
        {
            catchAlls.Remove(entry.Key, out RouteBucket? catchAll);
            prefixes.Add(entry.Key, new RoutePrefixGroup(depth, Create(entry.Value, depth + 1), catchAll));
        }

        foreach (KeyValuePair<string, RouteBucket> entry in catchAlls)
            prefixes.Add(entry.Key, new RoutePrefixGroup(depth, null, entry.Value));

        return new RouteNode(exact, prefixes);
    }

    /// <summary>Finds the most specific route for the rest of a path.</summary>
    /// <param name="rest">The path after what this node consumed: empty, or starting with '/'.</param>
    /// <param name="database">Set to the <c>{db}</c> segment, counted from the path's end, when the matched route has one.</param>
    /// <param name="bucket">The routes of the matched template.</param>
    /// <returns>Whether a route matches the whole rest.</returns>
    public bool TryMatch(ReadOnlySpan<char> rest, ref Range database, [NotNullWhen(true)] out RouteBucket? bucket)
    {
        if (_exact.TryGetValue(rest, out bucket))
            return true;

        if (_comparedPrefixes is not null)
        {
            foreach ((string prefix, RoutePrefixGroup group) in _comparedPrefixes)
            {
                if (StartsWithSegments(rest, prefix) && group.TryMatch(rest[prefix.Length..], ref database, out bucket))
                    return true;
            }

            bucket = null;
            return false;
        }

        // Candidate prefixes end at the end of the rest (a catch-all that captures nothing) or before a
        // '/'; the longest comes first because it is the more specific route.
        int end = rest.Length <= _longestPrefix ? rest.Length : rest[..(_longestPrefix + 1)].LastIndexOf('/');
        while (end >= 0)
        {
            if ((_prefixLengths & (1UL << Math.Min(end, MaxMaskedLength))) != 0
                && _prefixes.TryGetValue(rest[..end], out RoutePrefixGroup? group)
                && group.TryMatch(rest[end..], ref database, out bucket))
            {
                return true;
            }

            end = end == 0 ? -1 : rest[..end].LastIndexOf('/');
        }

        bucket = null;
        return false;
    }

    private static bool StartsWithSegments(ReadOnlySpan<char> rest, string prefix) =>
        rest.Length >= prefix.Length
        && (rest.Length == prefix.Length || rest[prefix.Length] == '/')
        && rest.StartsWith(prefix, StringComparison.OrdinalIgnoreCase);
}
