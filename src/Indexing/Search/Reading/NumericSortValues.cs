namespace Folio.Indexing.Search;

/// <summary>A numeric field's sort keys, read from its column (missing and null sort before every value).</summary>
internal sealed class NumericSortValues(NumericColumn? column) : SortKeyValues
{
    private ulong[] _values = [];
    private bool[] _present = [];

    /// <summary>The column the keys come from; null when no entry has the field.</summary>
    public NumericColumn? Column => column;

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

    /// <summary>Puts a key the caller read itself into <paramref name="slot"/>.</summary>
    public void Set(int slot, bool present, ulong value)
    {
        _present[slot] = present;
        _values[slot] = value;
    }

    public override int Compare(int a, int b) => Compare(_present[a], _values[a], b);

    /// <summary>Compares a key the caller read itself with the one in <paramref name="slot"/>, ascending.</summary>
    public int Compare(bool present, ulong value, int slot)
    {
        if (!present || !_present[slot])
            return present ? 1 : _present[slot] ? -1 : 0;
        return value.CompareTo(_values[slot]);
    }
}
