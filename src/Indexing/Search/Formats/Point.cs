namespace Folio.Indexing.Search;

/// <summary>
/// One value of a numeric field for one entry: the value in the order-preserving form of
/// <see cref="TermEncoding"/> read as a big-endian ulong, and the entry id. Points order by value, then id.
/// </summary>
internal readonly record struct Point(ulong Value, long Id) : IComparable<Point>
{
    /// <inheritdoc/>
    public int CompareTo(Point other)
    {
        var byValue = Value.CompareTo(other.Value);
        return byValue != 0 ? byValue : Id.CompareTo(other.Id);
    }

    /// <summary>Whether this point orders before <paramref name="other"/>.</summary>
    public bool IsBefore(Point other) => Value < other.Value || (Value == other.Value && Id < other.Id);
}
