using Folio.Indexing.Postings;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;

namespace Folio.Indexing.Search;

// field in (…): a few values merge their posting lists as they go; more are looked up once each, in term
// order (neighbouring lookups descend through pages the last one touched), and united into one bit set.
// Merging 100,000 lists would cost a pass over every list per match.
public sealed partial class IndexSearcher
{
    /// <summary>Up to this many values, a set merges its terms' posting lists instead of filling a bit set.</summary>
    private const int MergedValuesAtMost = 16;

    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(TermsInQuery query)
    {
        var values = query.Values;
        if (values.Count == 0)
            return new EmptyIterator();
        if (values.Count == 1)
            return Equal(query.Field, values[0]);
        if (values.Count <= MergedValuesAtMost)
        {
            var children = new DocIdIterator[values.Count];
            for (var i = 0; i < values.Count; i++)
                children[i] = Equal(query.Field, values[i]);
            return new OrIterator(children);
        }
        return TermSet(query.Field, values);
    }

    private DocIdIterator TermSet(string field, IReadOnlyList<FieldValue> values)
    {
        var terms = new List<byte[]>(values.Count);
        var withNull = false;
        for (var i = 0; i < values.Count; i++)
        {
            if (values[i].Type == FieldValueType.Null)
                withNull = true;
            else if (EqualityTerm(field, values[i]) is { } term)
                terms.Add(term);
        }
        terms.Sort(static (a, b) => a.AsSpan().SequenceCompareTo(b));
        var reader = Field(field);
        if (reader.IsNumeric)
            return withNull ? new OrIterator([NumberSet(field, terms), Marks(field, SearchIndex.NullTerm)]) : NumberSet(field, terms);
        ulong[]? bits = null;
        long count = 0;
        var ids = _scratch.WalkIds;
        var frequencies = _scratch.WalkFrequencies;
        for (var i = 0; i < terms.Count; i++)
        {
            if ((i & CancellationStride) == 0)
                Guard.Check();
            var term = terms[i];
            if (reader.Terms is not { } tree || (i > 0 && term.AsSpan().SequenceEqual(terms[i - 1])))
                continue;
            // A list kept whole in the term's header is decoded straight into the set; a chunked one is walked.
            var termKey = TermEncoding.TermKey(term);
            if (!tree.TryGet(termKey, out var header))
                continue;
            count += PostingStore.IsChunked(header)
                ? AddToBits(new TermIterator(tree, reader.Sealed, termKey, header, _scratch), bits ??= RentBits())
                : AddToBits(header, bits ??= RentBits(), ref ids, ref frequencies);
        }
        _scratch.WalkIds = ids;
        _scratch.WalkFrequencies = frequencies;
        count -= ClearDead(field, bits);
        if (withNull)
            count += AddToBits(Marks(field, SearchIndex.NullTerm), bits ??= RentBits());
        return Bits(bits, count);
    }

    /// <summary>
    /// A set of numbers: one walk over the field's points from the smallest to the largest, each distinct value
    /// judged by a binary search in the sorted set (a seek per value would read its block twice).
    /// </summary>
    private DocIdIterator NumberSet(string field, List<byte[]> sortedTerms)
    {
        var numbers = new List<ulong>(sortedTerms.Count);
        foreach (var term in sortedTerms)
        {
            if (term.Length == 8)
                numbers.Add(System.Buffers.Binary.BinaryPrimitives.ReadUInt64BigEndian(term));
        }
        if (numbers.Count == 0)
            return new EmptyIterator();
        var from = new byte[8];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt64BigEndian(from, numbers[0]);
        return UnionOfTerms(field, from, static (term, set) =>
        {
            var value = System.Buffers.Binary.BinaryPrimitives.ReadUInt64BigEndian(term);
            if (value > set[^1])
                return TermVerdict.Stop;
            return Array.BinarySearch(set, value) >= 0 ? TermVerdict.Take : TermVerdict.Skip;
        }, numbers.ToArray());
    }

    /// <summary>Sets the bits of every id <paramref name="matches"/> walks to; returns how many were not set before.</summary>
    private static long AddToBits(DocIdIterator matches, ulong[] bits)
    {
        long added = 0;
        while (matches.MoveNext())
        {
            var id = matches.Current;
            ref var slot = ref bits[id >> 6];
            var mask = 1UL << (int)(id & 63);
            if ((slot & mask) == 0)
            {
                slot |= mask;
                added++;
            }
        }
        return added;
    }
}
