using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

public sealed partial class DocumentReader
{
    private Tree? _compareExchange;

    // Stores written before compare exchange existed get the tree when they are next opened for writing.
    private Tree? CompareExchangeTree => _compareExchange ??= _transaction.OpenTree(CompareExchangeEntries.Tree);

    /// <summary>The number of compare-exchange entries (atomic guards included).</summary>
    public long CountOfCompareExchange => CompareExchangeTree?.Count ?? 0;

    /// <summary>Reads the compare-exchange entry under <paramref name="key"/> (case-insensitive).</summary>
    public bool TryGetCompareExchange(string key, out CompareExchangeValue? value)
    {
        value = null;
        if (string.IsNullOrEmpty(key) || CompareExchangeTree is not { } tree)
            return false;
        if (!tree.TryGet(CompareExchangeEntries.StorageKey(key), out var record))
            return false;
        value = CompareExchangeEntries.Read(record);
        return true;
    }

    /// <summary>
    /// The entries whose key starts with <paramref name="prefix"/> (case-insensitive; empty: all), in key order,
    /// skipping <paramref name="start"/> and returning at most <paramref name="pageSize"/>.
    /// </summary>
    public List<CompareExchangeValue> CompareExchangeStartingWith(string prefix, int start, int pageSize)
    {
        var result = new List<CompareExchangeValue>();
        if (CompareExchangeTree is not { } tree || pageSize <= 0)
            return result;
        var lowered = CompareExchangeEntries.StorageKey(prefix);
        var cursor = tree.CreateCursor();
        var skipped = 0;
        for (var more = lowered.Length == 0 ? cursor.First() : cursor.Seek(lowered); more && cursor.Key.StartsWith(lowered); more = cursor.MoveNext())
        {
            if (skipped++ < start)
                continue;
            result.Add(CompareExchangeEntries.Read(cursor.Value));
            if (result.Count == pageSize)
                break;
        }
        return result;
    }
}
