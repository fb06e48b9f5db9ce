namespace Folio.Indexing.Search;

/// <summary>A text field's sort keys (the smallest value's bytes), read from its doc values per candidate.</summary>
internal sealed class BytesSortValues(IndexSearcher searcher, string field) : SortKeyValues
{
    private byte[]?[] _values = [];

    public override void Grow(int slots) => Array.Resize(ref _values, slots);

    public override void Load(int slot, long entryId, float score) => _values[slot] = searcher.SortValue(field, entryId);

    public override int Compare(int a, int b)
    {
        var x = _values[a];
        var y = _values[b];
        return x is null ? (y is null ? 0 : -1) : y is null ? 1 : x.AsSpan().SequenceCompareTo(y);
    }
}
