using System.Collections.Concurrent;

namespace Folio.Indexing.Search;

/// <summary>
/// The most frequent spellings (<see cref="Collectors.IDocValues.Spelling"/>) an index's searchers have looked up,
/// kept for the newest snapshot asked. A term facet answers one per value it shows, two tree lookups each (5,000
/// brands: 10,000 lookups, most of a term query's facets at 1M records), while the answer only changes when a batch
/// commits: searchers on the same snapshot share the lookups, and a searcher on an older one looks up its own.
/// </summary>
internal sealed class SpellingCache
{
    private Snapshot? _current;

    /// <summary>
    /// The spellings of <paramref name="field"/> kept for <paramref name="snapshot"/>, to look values up in and add
    /// them to; null when a newer snapshot's are kept (the caller then looks up its own). A facet asks once, then once
    /// per value it answers.
    /// </summary>
    public ConcurrentDictionary<byte[], string?>.AlternateLookup<ReadOnlySpan<byte>>? For(long snapshot, string field)
    {
        var current = Volatile.Read(ref _current);
        while (current is null || current.Id < snapshot)
        {
            var newer = new Snapshot(snapshot);
            var seen = Interlocked.CompareExchange(ref _current, newer, current);
            current = seen == current ? newer : seen;
        }
        if (current.Id != snapshot)
            return null;
        return current.Fields.GetOrAdd(field, static _ => new ConcurrentDictionary<byte[], string?>(ByteArrayComparer.Instance))
            .GetAlternateLookup<ReadOnlySpan<byte>>();
    }

    private sealed class Snapshot(long id)
    {
        public long Id { get; } = id;

        public ConcurrentDictionary<string, ConcurrentDictionary<byte[], string?>> Fields { get; } = new(StringComparer.Ordinal);
    }
}
