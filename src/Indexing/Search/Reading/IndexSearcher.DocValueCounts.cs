using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

// Facets over every entry, answered from what the index keeps per value rather than per entry: a term's posting
// count, and how many points each block of a numeric field holds. Only where each entry has at most one value and no
// null (the doc-value tree is empty), so a value's count is the number of entries a facet would count under it.
public sealed partial class IndexSearcher
{
    private sealed partial class FieldDocValues
    {
        // A term's postings header gives how many entries have it (removed entries already taken out), and the term
        // dictionary its id, which is the ordinal TryReadOrdinals reads from the id column: a walk over a few thousand
        // terms instead of the id column of every entry.
        public bool TryCountEveryOrdinal(Action<long, long> add, out long counted)
        {
            counted = 0;
            // Postings that still hold dead entries (a field full-text once) would count them.
            if (!HasOneValueEach() || reader.IsNumeric || reader.IdColumnValues is null || reader.TermIds is not { } termIds || searcher.DeadIn(field) is not null)
                return false;
            if (reader.Terms is not { } terms)
                return true;
            var cursor = terms.CreateCursor();
            var ids = termIds.CreateCursor();
            var idsLeft = ids.First();
            var term = searcher._scratch.WalkTerm;
            var cache = searcher._index.OrdinalTerms;
            var walked = 0;
            for (var more = cursor.First(); more; more = cursor.MoveNext())
            {
                if ((++walked & CancellationStride) == 0)
                    searcher.Guard.Check();
                var key = cursor.Key;
                if (key.Length > term.Length)
                    term = new byte[key.Length];
                if (!TermEncoding.TryDecodeKey(key, term, out var termLength, out var termKeyLength))
                    throw new Folio.Storage.CorruptionException($"The terms of field '{field}' hold a key that is not a term.");
                // Chunk keys follow their term's key.
                if (termKeyLength != key.Length || SpellingVariant.IsVariant(term.AsSpan(0, termLength)))
                    continue;
                var frequency = PostingStore.DocumentFrequency(cursor.Value);
                counted += frequency;
                // Both trees are keyed by the term key, so the ids cursor steps along with the terms.
                while (idsLeft && ids.Key.SequenceCompareTo(key) < 0)
                    idsLeft = ids.MoveNext();
                if (idsLeft && ids.Key.SequenceEqual(key))
                {
                    add(IdOf(ids.Value), frequency);
                    continue;
                }
                // A term every entry spells otherwise has no id of its own: a spelling's id stands for it, found once
                // in the dictionary and then kept with the values ordinals were read as.
                var bytes = term.AsSpan(0, termLength);
                if (!cache.TryGetOrdinal(field, bytes, out var ordinal))
                    ordinal = IdOf(VariantOf(termIds, bytes));
                add(ordinal, frequency);
            }
            searcher._scratch.WalkTerm = term;
            return true;
        }

        private static long IdOf(ReadOnlySpan<byte> stored)
        {
            var position = 0;
            return (long)Varint.Read(stored, ref position);
        }

        /// <summary>The term dictionary's value for one of the spellings of <paramref name="term"/>, which has no id of its own.</summary>
        private ReadOnlySpan<byte> VariantOf(Tree termIds, ReadOnlySpan<byte> term)
        {
            Span<byte> prefix = stackalloc byte[TermEncoding.MaxTermBytes + 8];
            prefix = prefix[..SpellingVariant.WritePrefix(term, prefix)];
            Span<byte> escaped = stackalloc byte[TermEncoding.MaxTermKeyLength(prefix.Length)];
            // A term key is the escaped term and two zero bytes; every variant's key starts with the escaped prefix.
            escaped = escaped[..(TermEncoding.TermKey(prefix, escaped) - 2)];
            var variants = termIds.CreateCursor();
            if (!variants.Seek(escaped) || !variants.Key.StartsWith(escaped))
                throw new Folio.Storage.CorruptionException($"A term of field '{field}' has postings but no id in the term dictionary.");
            return variants.Value;
        }

        // Every value of a numeric field is a point, and a point block's header says how many it holds: a range's
        // count is how many points lie below its upper bound less how many lie below its lower one, which reads the
        // blocks' headers and decodes only the block each bound falls in.
        public bool TryCountEveryNumber(ReadOnlySpan<ulong> lowest, ReadOnlySpan<ulong> highest, Span<long> counts)
        {
            if (!HasOneValueEach() || !reader.IsNumeric)
                return false;
            counts.Clear();
            // The main blocks and each run count apart.
            foreach (var points in reader.PointSets())
            {
                var blocks = BlockStarts(points);
                if (blocks.First.Length == 0)
                    continue;
                var total = blocks.Before[^1];
                for (var r = 0; r < counts.Length; r++)
                {
                    if (lowest[r] > highest[r])
                        continue;
                    var below = lowest[r] == 0 ? 0 : PointsBelow(points, blocks, lowest[r]);
                    var upTo = highest[r] == ulong.MaxValue ? total : PointsBelow(points, blocks, highest[r] + 1);
                    counts[r] += upTo - below;
                }
            }
            return true;
        }

        // The doc-value tree holds the entries with several values or a null, and only those.
        private bool HasOneValueEach() => reader.Values is not { Count: > 0 };

        /// <summary>Each point block's first point, and how many points the blocks before it hold (one more, at the end: all of them).</summary>
        private static (Point[] First, long[] Before) BlockStarts(PointBlocks points)
        {
            var first = new List<Point>();
            var before = new List<long> { 0 };
            var cursor = points.Tree.CreateCursor();
            for (var more = points.First(cursor); more; more = points.MoveNext(cursor))
            {
                first.Add(points.ReadKey(cursor.Key));
                var position = 0;
                var others = (long)Varint.Read(cursor.Value, ref position);
                before.Add(before[^1] + 1 + others);
            }
            // The main blocks are their whole tree, whose header counts them.
            if (points.IsWhole && first.Count != points.Tree.Count)
                throw new Folio.Storage.CorruptionException($"A numeric field's point tree holds {first.Count} blocks and counts {points.Tree.Count}.");
            return (first.ToArray(), before.ToArray());
        }

        /// <summary>How many points have a value below <paramref name="bound"/>: all those of the blocks before the one it falls in, and that block's own below it.</summary>
        private static long PointsBelow(PointBlocks points, (Point[] First, long[] Before) blocks, ulong bound)
        {
            // The last block starting below the bound: the ones before it end at or below its first value.
            int low = 0, high = blocks.First.Length - 1, found = -1;
            while (low <= high)
            {
                var middle = (low + high) >>> 1;
                if (blocks.First[middle].Value < bound)
                    (found, low) = (middle, middle + 1);
                else
                    high = middle - 1;
            }
            if (found < 0)
                return 0;
            Span<byte> key = stackalloc byte[PointBlocks.MaxKeySize];
            points.WriteKey(key, blocks.First[found]);
            key = key[..points.KeySize];
            if (!points.Tree.TryGet(key, out var value))
                throw new Folio.Storage.CorruptionException("A numeric field's point block went missing during a read.");
            var below = blocks.Before[found];
            var block = new PointBlock.Reader(points.PointKey(key), value);
            while (block.MoveNext() && block.Current.Value < bound)
                below++;
            return below;
        }
    }
}
