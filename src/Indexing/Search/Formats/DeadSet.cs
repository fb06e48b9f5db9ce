namespace Folio.Indexing.Search;

/// <summary>
/// The entries deleted since the last sweep whose full-text postings still hold them (<see cref="DeadEntries"/>), as a
/// searcher reads them: their ids in order and the fields whose postings hold them. Shared by the searchers of one
/// version of the set.
/// </summary>
internal sealed class DeadSet(long version, long[] ids, HashSet<string> fields)
{
    /// <summary>No dead entries.</summary>
    public static DeadSet Empty { get; } = new(0, [], []);

    /// <summary>The version of the set (<see cref="DeadEntries.VersionKey"/>) these were read at.</summary>
    public long Version { get; } = version;

    /// <summary>The dead entries' ids, ascending.</summary>
    public long[] Ids { get; } = ids;

    /// <summary>The dead ids whose postings in <paramref name="field"/> may still name them; null when none may.</summary>
    public long[]? In(string field) => Ids.Length > 0 && fields.Contains(field) ? Ids : null;

    /// <summary>Whether <paramref name="id"/> is dead, by a binary search.</summary>
    public bool Contains(long id) => Array.BinarySearch(Ids, id) >= 0;
}
