using System.Collections.Frozen;

namespace Folio.Server.Routing;

/// <summary>
/// The <c>{db}</c> routes sharing one fixed prefix (e.g. <c>/databases/</c>), keyed by the fixed text
/// after the database segment (e.g. <c>/docs</c>). Every database's requests for one template land
/// in the same bucket, so the table stays as small as the number of templates whatever the traffic.
/// </summary>
internal sealed class RoutePrefixGroup
{
    private readonly FrozenDictionary<string, RouteBucket>.AlternateLookup<ReadOnlySpan<char>> _bySuffix;

    public RoutePrefixGroup(string prefix, Dictionary<string, RouteBucket> bySuffix)
    {
        Prefix = prefix;
        _bySuffix = bySuffix.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase).GetAlternateLookup<ReadOnlySpan<char>>();
    }

    /// <summary>Fixed text before the database segment, ending with '/'.</summary>
    public string Prefix { get; }

    /// <summary>Finds the bucket for the text after the database segment, ignoring case.</summary>
    /// <param name="suffix">Path text after the database segment; empty or starting with '/'.</param>
    /// <param name="bucket">The bucket, when found.</param>
    /// <returns>Whether a bucket has this suffix.</returns>
    public bool TryGetBucket(ReadOnlySpan<char> suffix, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out RouteBucket? bucket) =>
        _bySuffix.TryGetValue(suffix, out bucket);
}
