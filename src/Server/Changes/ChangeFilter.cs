using System.Text.Json;
using Folio.Indexing.Querying.Matching;

namespace Folio.Server.Changes;

/// <summary>
/// Which document changes a feed reports: changes to given ids, to ids starting with given prefixes, or in
/// given collections (a change matching any of them), or every change; or, for a data subscription, the changes of
/// one collection whose stored document a query matches (<see cref="ForQuery"/>). Ids, prefixes and collections compare
/// case-insensitively, as documents' ids and collections do. Immutable: a WebSocket's watch and unwatch commands
/// swap in a new filter while its sender reads the old one.
/// </summary>
public sealed class ChangeFilter
{
    private readonly HashSet<string> _ids;
    private readonly HashSet<string> _prefixes;
    private readonly HashSet<string> _collections;
    private readonly DocumentMatcher? _query;

    private ChangeFilter(bool all, HashSet<string> ids, HashSet<string> prefixes, HashSet<string> collections, DocumentMatcher? query = null)
    {
        All = all;
        _ids = ids;
        _prefixes = prefixes;
        _collections = collections;
        _query = query;
        CollectionsToRead = all || ids.Count > 0 || prefixes.Count > 0 || collections.Count == 0 ? null : [.. collections];
    }

    /// <summary>The filter that matches nothing (a WebSocket before its first watch command).</summary>
    public static ChangeFilter Nothing { get; } = new(false, NewSet(), NewSet(), NewSet());

    /// <summary>The filter that matches every change.</summary>
    public static ChangeFilter Everything { get; } = new(true, NewSet(), NewSet(), NewSet());

    /// <summary>Whether every change matches.</summary>
    public bool All { get; }

    /// <summary>Whether no change can match.</summary>
    public bool IsEmpty => !All && _ids.Count == 0 && _prefixes.Count == 0 && _collections.Count == 0;

    /// <summary>
    /// The collections to read when the filter names only collections (so the read walks only their etag trees),
    /// else null: ids and prefixes can be in any collection.
    /// </summary>
    public IReadOnlyList<string>? CollectionsToRead { get; }

    /// <summary>
    /// The changes of <paramref name="query"/>'s collection whose stored document it matches, and every delete there
    /// (a deleted document can no longer be read to tell whether it matched).
    /// </summary>
    public static ChangeFilter ForQuery(DocumentMatcher query) => new(false, NewSet(), NewSet(), NewSet(query.Collection), query);

    /// <summary>Whether <see cref="MatchesDocument"/> reads the stored document: false unless a query has conditions.</summary>
    public bool ReadsDocuments => _query is { MatchesEverything: false };

    /// <summary>Whether a change to <paramref name="id"/> in <paramref name="collection"/> is reported.</summary>
    public bool Matches(string id, string collection)
    {
        if (All || _ids.Contains(id) || _collections.Contains(collection))
            return true;
        foreach (var prefix in _prefixes)
        {
            if (id.StartsWith(prefix, StringComparison.OrdinalIgnoreCase))
                return true;
        }

        return false;
    }

    /// <summary>Whether a stored document that <see cref="Matches"/> passed also meets the query, when there is one.</summary>
    public bool MatchesDocument(string id, ReadOnlySpan<byte> json)
    {
        if (!ReadsDocuments)
            return true;
        var reader = new Utf8JsonReader(json);
        using JsonDocument parsed = JsonDocument.ParseValue(ref reader);
        return _query!.Matches(id, parsed.RootElement);
    }

    /// <summary>This filter with every change matched too (<paramref name="on"/>) or no longer all of them.</summary>
    public ChangeFilter WithAll(bool on) => new(on, _ids, _prefixes, _collections);

    /// <summary>This filter with <paramref name="id"/> added or removed.</summary>
    public ChangeFilter WithId(string id, bool on) => new(All, Toggle(_ids, id, on), _prefixes, _collections);

    /// <summary>This filter with <paramref name="prefix"/> added or removed.</summary>
    public ChangeFilter WithPrefix(string prefix, bool on) => new(All, _ids, Toggle(_prefixes, prefix, on), _collections);

    /// <summary>This filter with <paramref name="collection"/> added or removed.</summary>
    public ChangeFilter WithCollection(string collection, bool on) => new(All, _ids, _prefixes, Toggle(_collections, collection, on));

    private static HashSet<string> Toggle(HashSet<string> set, string value, bool on)
    {
        var copy = new HashSet<string>(set, StringComparer.OrdinalIgnoreCase);
        if (on)
            copy.Add(value);
        else
            copy.Remove(value);
        return copy;
    }

    private static HashSet<string> NewSet(params string[] values) => new(values, StringComparer.OrdinalIgnoreCase);
}
