using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using Folio.Indexing.Collectors;

namespace Folio.Indexing.Search;

/// <summary>
/// The values term ids stand for, as term facets have read them (<see cref="IDocValues.ReadOrdinal"/>), kept for the
/// index's lifetime: a term dictionary never gives an id to another term (<see cref="TermDictionary"/>), so what an
/// id was read as stays true in every later snapshot, and a facet over 5,000 brands need not descend the id tree
/// 5,000 times per query. At most <see cref="MaxPerField"/> ids per field are kept, so a facet over a field of
/// millions of distinct values costs memory only for the ones first met.
/// </summary>
internal sealed class OrdinalTermCache
{
    /// <summary>The most ids kept per field.</summary>
    public const int MaxPerField = 1 << 18;

    private readonly ConcurrentDictionary<string, FieldTerms> _fields = new(StringComparer.Ordinal);

    /// <summary>The value <paramref name="ordinal"/> of <paramref name="field"/> was read as, if kept.</summary>
    public bool TryGet(string field, long ordinal, [NotNullWhen(true)] out OrdinalTerm? term)
    {
        term = null;
        return _fields.TryGetValue(field, out var terms) && terms.Terms.TryGetValue(ordinal, out term);
    }

    /// <summary>Keeps what <paramref name="ordinal"/> of <paramref name="field"/> was read as, while the field has room.</summary>
    public void Add(string field, long ordinal, OrdinalTerm term)
    {
        var terms = _fields.GetOrAdd(field, static _ => new FieldTerms());
        if (Volatile.Read(ref terms.Count) >= MaxPerField)
            return;
        if (terms.Terms.TryAdd(ordinal, term))
        {
            Interlocked.Increment(ref terms.Count);
            terms.Ordinals.TryAdd(term.Bytes, ordinal);
        }
    }

    /// <summary>
    /// An ordinal kept for the value whose bytes are <paramref name="bytes"/> (its term's own id or one of its
    /// spellings'): it stands for that value in every snapshot, as <see cref="TryGet"/> answers it whatever the
    /// dictionary holds by then. Lets a count by term find each term's ordinal without a lookup in the dictionary.
    /// </summary>
    public bool TryGetOrdinal(string field, ReadOnlySpan<byte> bytes, out long ordinal)
    {
        ordinal = -1;
        return _fields.TryGetValue(field, out var terms) && terms.OrdinalsBySpan.TryGetValue(bytes, out ordinal);
    }

    private sealed class FieldTerms
    {
        // Counted apart: a concurrent dictionary's Count takes every lock.
        public int Count;

        public FieldTerms() => OrdinalsBySpan = Ordinals.GetAlternateLookup<ReadOnlySpan<byte>>();

        public ConcurrentDictionary<long, OrdinalTerm> Terms { get; } = new();

        // The first ordinal kept for each value, by the value's bytes: only ordinals Terms keeps, so each resolves.
        public ConcurrentDictionary<byte[], long> Ordinals { get; } = new(ByteArrayComparer.Instance);

        public ConcurrentDictionary<byte[], long>.AlternateLookup<ReadOnlySpan<byte>> OrdinalsBySpan { get; }
    }
}
