using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.MapReduce;

/// <summary>A snapshot of a map/reduce index's result rows, by group key; dispose it to let go of the snapshot.</summary>
internal sealed class ReduceRows(ReadTransaction read) : IDisposable
{
    private readonly Tree _rows = read.OpenTree(ReduceStore.RowsTree)!;
    private byte[] _key = new byte[256];

    /// <summary>The row of the group <paramref name="key"/>, valid until this snapshot is disposed.</summary>
    public bool TryGet(string key, out ReadOnlySpan<byte> row)
    {
        var length = System.Text.Encoding.UTF8.GetMaxByteCount(key.Length);
        if (_key.Length < length)
            _key = new byte[length];
        var written = System.Text.Encoding.UTF8.GetBytes(key, _key);
        return _rows.TryGet(_key.AsSpan(0, written), out row);
    }

    public void Dispose() => read.Dispose();
}
