using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Folio.Indexing.Runner;

/// <summary>The documents an index could not take: the most recent ones, how many in all, each logged.</summary>
internal sealed class IndexErrorLog(string index, ILogger logger)
{
    private const int MaxKept = 500;

    // Made by the first error: most indexes never have one, and the first segment of a queue is most of a kilobyte.
    private ConcurrentQueue<IndexError>? _recent;
    private long _total;

    /// <summary>The most recent errors (at most 500) and how many there were in all.</summary>
    public (IReadOnlyList<IndexError> Recent, long Total) Snapshot => (_recent is { } recent ? [.. recent] : [], Interlocked.Read(ref _total));

    /// <summary>Forgets the errors, as if there had been none.</summary>
    public void Clear()
    {
        _recent?.Clear();
        Interlocked.Exchange(ref _total, 0);
    }

    public void Record(IndexError error)
    {
        Interlocked.Increment(ref _total);
        var recent = LazyInitializer.EnsureInitialized(ref _recent);
        recent.Enqueue(error);
        while (recent.Count > MaxKept)
            recent.TryDequeue(out _);
        logger.LogWarning("Index {Index} could not index {DocumentId}: {Error}", index, error.DocumentId, error.Message);
    }
}
