using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>A numeric field's sort keys, read from its column (missing and null sort before every value).</summary>
internal sealed class NumericSortValues(NumericColumn? column) : SortKeyValues
{
    private ulong[] _values = [];
    private bool[] _present = [];

    public override void Grow(int slots)
    {
        Array.Resize(ref _values, slots);
        Array.Resize(ref _present, slots);
    }

    public override void Load(int slot, long entryId, float score)
    {
        if (column is null)
        {
            _present[slot] = false;
            return;
        }
        _present[slot] = column.TryGet(entryId, out _values[slot]);
    }

    public override int Compare(int a, int b)
    {
        if (!_present[a] || !_present[b])
            return _present[a] ? 1 : _present[b] ? -1 : 0;
        return _values[a].CompareTo(_values[b]);
    }
}
