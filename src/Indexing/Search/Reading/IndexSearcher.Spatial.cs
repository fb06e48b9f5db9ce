using System.Text;
using Folio.Indexing.Postings;
using Folio.Indexing.Queries;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Spatial;

namespace Folio.Indexing.Search;

// Spatial queries: the terms of a spatial field in each covering range of cells, each term's point tested against the
// shape, the postings of those inside united into one bit set (one walk per range, one set for all of them).
public sealed partial class IndexSearcher
{
    DocIdIterator IQueryVisitor<DocIdIterator>.Visit(SpatialQuery query)
    {
        var reader = Field(query.Field);
        if (reader.IsNumeric || reader.Terms is null)
            return new EmptyIterator();
        var cursor = reader.Terms.CreateCursor();
        ulong[]? bits = null;
        long count = 0;
        var ids = _scratch.WalkIds;
        var frequencies = _scratch.WalkFrequencies;
        var term = _scratch.WalkTerm;
        var termKey = _scratch.WalkTermKey;
        Span<byte> sealKey = stackalloc byte[8];
        var shape = query.Shape;
        foreach (var (low, high) in query.Ranges)
        {
            var more = cursor.Seek(TermEncoding.TermKey(Encoding.ASCII.GetBytes(SpatialTerm.CellPrefix(low))));
            while (more)
            {
                var key = cursor.Key;
                if (key.Length > term.Length)
                {
                    term = new byte[key.Length];
                    termKey = new byte[key.Length];
                }
                if (!TermEncoding.TryDecodeKey(key, term, out var termLength, out var termKeyLength) || termKeyLength != key.Length)
                    throw new Folio.Storage.CorruptionException($"The terms of field '{query.Field}' hold a key that is not a term.");
                var text = term.AsSpan(0, termLength);
                if (SpatialTerm.TryReadCell(text, out var cell) && cell > high)
                    break;
                var header = cursor.Value;
                var chunked = PostingStore.IsChunked(header);
                if (!SpatialTerm.TryDecode(text, out _, out var lat, out var lng) || !shape.Contains(lat, lng))
                {
                    more = chunked ? cursor.Seek(TermEncoding.AfterTerm(key)) : cursor.MoveNext();
                    continue;
                }
                bits ??= RentBits();
                if (!chunked)
                {
                    count += AddToBits(header, bits, ref ids, ref frequencies);
                    more = cursor.MoveNext();
                    continue;
                }
                key.CopyTo(termKey);
                more = cursor.MoveNext();
                while (more && PostingStore.IsChunkOf(cursor.Key, termKey.AsSpan(0, termKeyLength)))
                {
                    count += AddToBits(PostingStore.Chunk(reader.Sealed, cursor.Value, sealKey), bits, ref ids, ref frequencies);
                    more = cursor.MoveNext();
                }
            }
        }
        _scratch.WalkIds = ids;
        _scratch.WalkFrequencies = frequencies;
        _scratch.WalkTerm = term;
        _scratch.WalkTermKey = termKey;
        return bits is null ? new EmptyIterator() : new BitSetIterator(bits, count, _scratch.ReleaseBits);
    }
}
