namespace Folio.Indexing.MapReduce;

/// <summary>
/// A searcher whose hits are rows the index keeps itself (a map/reduce index's groups), not documents of
/// the store: a query answers <see cref="TryGetRow"/> for each hit key instead of loading a document.
/// </summary>
public interface IRowSource
{
    /// <summary>
    /// The JSON row kept under <paramref name="key"/> (a hit's key), from the snapshot the searcher reads;
    /// valid until the searcher is disposed. False when there is none.
    /// </summary>
    bool TryGetRow(string key, out ReadOnlySpan<byte> row);
}
