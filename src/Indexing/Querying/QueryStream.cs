using System.Collections;

namespace Folio.Indexing.Querying;

/// <summary>
/// Every result of a streamed query, enumerated once. It owns the snapshot the results are read from
/// (an index searcher, a document reader) from the moment the query ran: dispose it when done, even if
/// it was never enumerated, so the snapshot does not keep the index's files open.
/// </summary>
public sealed class QueryStream : IEnumerable<byte[]>, IDisposable
{
    private readonly IEnumerable<byte[]> _results;
    private readonly IDisposable? _owned;

    internal QueryStream(IEnumerable<byte[]> results, IDisposable? owned)
    {
        _results = results;
        _owned = owned;
    }

    /// <inheritdoc/>
    public IEnumerator<byte[]> GetEnumerator() => _results.GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Lets go of the snapshot (a second call does nothing).</summary>
    public void Dispose() => _owned?.Dispose();
}
