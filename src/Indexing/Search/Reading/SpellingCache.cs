using System.Collections.Concurrent;

namespace Folio.Indexing.Search;

/// <summary>
/// The most frequent spellings (<see cref="Collectors.IDocValues.Spelling(ReadOnlySpan{byte})"/>) an index's searchers have looked up,
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
    public FieldSpellings? For(long snapshot, string field)
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
        return current.Fields.GetOrAdd(field, static _ => new FieldSpellings());
    }

    /// <summary>
    /// One field's spellings at one snapshot: by a value's bytes, and by its number (<see cref="Collectors.OrdinalTerm.Number"/>),
    /// which a facet that counted by ordinals finds without hashing the bytes.
    /// </summary>
    internal sealed class FieldSpellings
    {
        // What a number's slot holds for a value spelled as it is (null there: not looked up yet).
        private static readonly object AsIs = new();

        private readonly Lock _growing = new();
        private object?[] _byNumber = [];

        public FieldSpellings() => ByBytes = new ConcurrentDictionary<byte[], string?>(ByteArrayComparer.Instance).GetAlternateLookup<ReadOnlySpan<byte>>();

        public ConcurrentDictionary<byte[], string?>.AlternateLookup<ReadOnlySpan<byte>> ByBytes { get; }

        /// <summary>The spelling kept for value <paramref name="number"/>, if it was looked up (null: spelled as it is).</summary>
        public bool TryGet(int number, out string? spelling)
        {
            var byNumber = Volatile.Read(ref _byNumber);
            var kept = (uint)number < (uint)byNumber.Length ? byNumber[number] : null;
            spelling = kept as string;
            return kept is not null;
        }

        public void Set(int number, string? spelling)
        {
            var byNumber = Volatile.Read(ref _byNumber);
            if (number >= byNumber.Length)
            {
                // Grown under a lock and published whole; a value set in the old array meanwhile is just looked up again.
                lock (_growing)
                {
                    byNumber = _byNumber;
                    if (number >= byNumber.Length)
                    {
                        var grown = new object?[Math.Max(number + 1, byNumber.Length * 2)];
                        byNumber.CopyTo(grown, 0);
                        Volatile.Write(ref _byNumber, grown);
                        byNumber = grown;
                    }
                }
            }
            byNumber[number] = spelling ?? AsIs;
        }
    }

    private sealed class Snapshot(long id)
    {
        public long Id { get; } = id;

        public ConcurrentDictionary<string, FieldSpellings> Fields { get; } = new(StringComparer.Ordinal);
    }
}
