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

    /// <summary>The spelling of <paramref name="value"/> in <paramref name="field"/> at <paramref name="snapshot"/>, if kept.</summary>
    public bool TryGet(long snapshot, string field, ReadOnlySpan<byte> value, out string? spelling)
    {
        spelling = null;
        return Volatile.Read(ref _current) is { } current && current.Id == snapshot
            && current.Fields.TryGetValue(field, out var values)
            && values.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(value, out spelling);
    }

    /// <summary>Keeps a spelling looked up at <paramref name="snapshot"/>, unless a newer snapshot's are kept.</summary>
    public void Add(long snapshot, string field, ReadOnlySpan<byte> value, string? spelling)
    {
        var current = Volatile.Read(ref _current);
        while (current is null || current.Id < snapshot)
        {
            var newer = new Snapshot(snapshot);
            var seen = Interlocked.CompareExchange(ref _current, newer, current);
            current = seen == current ? newer : seen;
        }
        if (current.Id != snapshot)
            return;
        var values = current.Fields.GetOrAdd(field, static _ => new ConcurrentDictionary<byte[], string?>(ByteArrayComparer.Instance));
        values.GetAlternateLookup<ReadOnlySpan<byte>>().TryAdd(value, spelling);
    }

    private sealed class Snapshot(long id)
    {
        public long Id { get; } = id;

        public ConcurrentDictionary<string, ConcurrentDictionary<byte[], string?>> Fields { get; } = new(StringComparer.Ordinal);
    }
}
