namespace Folio.Indexing.Search;

/// <summary>
/// One sort key's values for the collector's slots (the kept candidates plus the one being judged),
/// held in arrays so a candidate is compared with the worst kept one without allocating.
/// </summary>
internal abstract class SortKeyValues
{
    /// <summary>Makes room for <paramref name="slots"/> slots, keeping the values of the existing ones.</summary>
    public abstract void Grow(int slots);

    /// <summary>Reads the key of <paramref name="entryId"/> (scored <paramref name="score"/>) into <paramref name="slot"/>.</summary>
    public abstract void Load(int slot, long entryId, float score);

    /// <summary>Negative when the value in slot <paramref name="a"/> sorts before the one in <paramref name="b"/> ascending.</summary>
    public abstract int Compare(int a, int b);
}
