using System.Collections.Concurrent;
using System.Diagnostics.CodeAnalysis;
using Folio.Indexing.Collectors;

namespace Folio.Indexing.Search;

/// <summary>
/// The values term ids stand for, as term facets have read them (<see cref="IDocValues.ReadOrdinal"/>), kept for the
/// index's lifetime: a term dictionary never gives an id to another term (<see cref="TermDictionary"/>), so what an
/// id was read as stays true in every later snapshot, and a facet over 5,000 brands need not descend the id tree
/// 5,000 times per query. At most <see cref="MaxPerField"/> ids per field are kept, so a facet over a field of
/// millions of distinct values costs memory only for the ones first met. Each value kept gets a number
/// (<see cref="OrdinalTerm.Number"/>).
/// </summary>
internal sealed class OrdinalTermCache
{
    /// <summary>The most ids kept per field.</summary>
    public const int MaxPerField = 1 << 18;

    /// <summary>The most values of a field <see cref="FieldTerms.Ranks"/> places in value order.</summary>
    public const int MaxRankedNumbers = 1 << 16;

    /// <summary>How long made ranks serve before values met since are ranked too.</summary>
    public const int RanksRemakeMilliseconds = 1_000;

    private readonly ConcurrentDictionary<string, FieldTerms> _fields = new(StringComparer.Ordinal);

    /// <summary>What is kept for <paramref name="field"/>: a reader asks once, then per id.</summary>
    public FieldTerms For(string field) => _fields.GetOrAdd(field, static _ => new FieldTerms());

    /// <summary>The value <paramref name="ordinal"/> of <paramref name="field"/> was read as, if kept.</summary>
    public bool TryGet(string field, long ordinal, [NotNullWhen(true)] out OrdinalTerm? term)
    {
        term = null;
        return _fields.TryGetValue(field, out var terms) && terms.TryGet(ordinal, out term);
    }

    /// <summary>Keeps what <paramref name="ordinal"/> of <paramref name="field"/> was read as, while the field has room; gives the term kept.</summary>
    public OrdinalTerm Add(string field, long ordinal, OrdinalTerm term) => For(field).Add(ordinal, term);

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

    /// <summary>The ids of one field kept, and the numbers of their values.</summary>
    internal sealed class FieldTerms
    {
        // Ids below this are also kept in an array, read without hashing: a facet looks up thousands per query.
        private const int MaxDenseOrdinal = MaxPerField;

        private readonly ConcurrentDictionary<long, OrdinalTerm> _terms = new();
        private OrdinalTerm?[] _dense = [];
        // Counted apart: a concurrent dictionary's Count takes every lock.
        private int _count;
        private int _numbers;
        // Each number's place among the values in value order (see Ranks), for the numbers there were when it was made.
        private int[] _ranks = [];
        private long _ranksMadeAt = long.MinValue;

        public FieldTerms() => OrdinalsBySpan = Ordinals.GetAlternateLookup<ReadOnlySpan<byte>>();

        // The first ordinal kept for each value, by the value's bytes: only ordinals the field keeps, so each resolves.
        private ConcurrentDictionary<byte[], long> Ordinals { get; } = new(ByteArrayComparer.Instance);

        public ConcurrentDictionary<byte[], long>.AlternateLookup<ReadOnlySpan<byte>> OrdinalsBySpan { get; }

        public bool TryGet(long ordinal, [NotNullWhen(true)] out OrdinalTerm? term)
        {
            var dense = Volatile.Read(ref _dense);
            if ((ulong)ordinal < (ulong)dense.Length && dense[ordinal] is { } known)
            {
                term = known;
                return true;
            }
            return _terms.TryGetValue(ordinal, out term);
        }

        public OrdinalTerm Add(long ordinal, OrdinalTerm term)
        {
            // Rare (once per id for the index's lifetime), so one lock keeps a value's number the same for all its ids.
            lock (_terms)
            {
                if (_terms.TryGetValue(ordinal, out var kept))
                    return kept;
                if (_count >= MaxPerField)
                    return term;
                term.Number = Ordinals.TryGetValue(term.Bytes, out var first) ? _terms[first].Number : _numbers++;
                Ordinals.TryAdd(term.Bytes, ordinal);
                _terms[ordinal] = term;
                _count++;
                if (ordinal < MaxDenseOrdinal)
                    KeepDense(ordinal, term);
                return term;
            }
        }

        /// <summary>
        /// Each value number's place in value order (kind, then bytes), indexed by <see cref="OrdinalTerm.Number"/>: a
        /// facet ordered by count puts values with equal counts in value order, and with their places it sorts plain
        /// integers once instead of comparing values' bytes. Covers the numbers given when it was made (a value met
        /// since has none: check the length); remade when numbers were added, at most once per
        /// <see cref="RanksRemakeMilliseconds"/> once made, and only for fields of up to <see cref="MaxRankedNumbers"/>
        /// values, so a field gaining values under writes does not sort them all on every query.
        /// </summary>
        public int[] Ranks()
        {
            var ranks = Volatile.Read(ref _ranks);
            var numbers = Volatile.Read(ref _numbers);
            if (ranks.Length == numbers || numbers > MaxRankedNumbers
                || (ranks.Length > 0 && Environment.TickCount64 - Volatile.Read(ref _ranksMadeAt) < RanksRemakeMilliseconds))
                return ranks;
            lock (_terms)
            {
                if (_ranks.Length == _numbers)
                    return _ranks;
                var byNumber = new OrdinalTerm[_numbers];
                foreach (var (_, ordinal) in Ordinals)
                {
                    var term = _terms[ordinal];
                    byNumber[term.Number] = term;
                }
                var order = new int[byNumber.Length];
                for (var number = 0; number < order.Length; number++)
                    order[number] = number;
                order.AsSpan().Sort((x, y) => CompareValues(byNumber[x], byNumber[y]));
                var made = new int[order.Length];
                for (var rank = 0; rank < order.Length; rank++)
                    made[order[rank]] = rank;
                Volatile.Write(ref _ranksMadeAt, Environment.TickCount64);
                Volatile.Write(ref _ranks, made);
                return made;
            }
        }

        private static int CompareValues(OrdinalTerm x, OrdinalTerm y) =>
            x.Kind != y.Kind ? x.Kind.CompareTo(y.Kind) : x.Bytes.AsSpan().SequenceCompareTo(y.Bytes);

        private void KeepDense(long ordinal, OrdinalTerm term)
        {
            var dense = _dense;
            if (ordinal >= dense.Length)
            {
                // A copy, published whole: readers holding the old array find what it had, and the rest in the dictionary.
                var grown = new OrdinalTerm?[Math.Min(MaxDenseOrdinal, Math.Max(ordinal + 1, dense.Length * 2L))];
                dense.CopyTo(grown, 0);
                grown[ordinal] = term;
                Volatile.Write(ref _dense, grown);
                return;
            }
            // Published after its number was set: a reader without the lock sees the term whole.
            Volatile.Write(ref dense[ordinal], term);
        }
    }
}
