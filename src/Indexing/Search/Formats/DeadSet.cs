namespace Folio.Indexing.Search;

/// <summary>
/// The entries deleted since the last sweep whose full-text postings still hold them (<see cref="DeadEntries"/>), as a
/// searcher reads them: their ids (ascending) and the fields whose postings hold them. Shared by the searchers of one
/// version of the set.
/// </summary>
internal sealed class DeadSet(long version, long[] ids, HashSet<string> fields)
{
    // Built once per version, on first use: a posting walk tests each id against it.
    private ulong[]? _bits;

    /// <summary>No dead entries.</summary>
    public static DeadSet Empty { get; } = new(0, [], []);

    /// <summary>The version of the set (<see cref="DeadEntries.VersionKey"/>) these were read at.</summary>
    public long Version { get; } = version;

    /// <summary>The dead ids as a bit per id (up to the highest), for the readers of <paramref name="field"/>'s postings; null when they hold none.</summary>
    public ulong[]? BitsIn(string field)
    {
        if (ids.Length == 0 || !fields.Contains(field))
            return null;
        if (Volatile.Read(ref _bits) is { } built)
            return built;
        var bits = new ulong[(ids[^1] >> 6) + 1];
        foreach (var id in ids)
            bits[id >> 6] |= 1UL << (int)(id & 63);
        Volatile.Write(ref _bits, bits);
        return bits;
    }

    /// <summary>Whether <paramref name="bits"/> (<see cref="BitsIn"/>) has <paramref name="id"/>'s bit set.</summary>
    public static bool IsSet(ulong[] bits, long id)
    {
        var word = (ulong)id >> 6;
        return word < (ulong)bits.Length && (bits[word] & (1UL << (int)(id & 63))) != 0;
    }
}
