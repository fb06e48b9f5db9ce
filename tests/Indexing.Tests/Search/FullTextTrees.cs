using Folio.Indexing.Postings;
using Folio.Indexing.Search;

namespace Folio.Indexing.Tests.Search;

/// <summary>What a full-text field's trees hold: its terms, and positions that match its posting lists one for one.</summary>
internal static class FullTextTrees
{
    /// <summary>
    /// The terms <paramref name="field"/>'s postings hold, after checking that its positions trees hold one list of
    /// positions for each inline list and each open chunk by its key (none for a chunked term's own header) and for each
    /// sealed chunk by its sequence number, that each decodes against its list's frequencies, and that the field keeps no
    /// term dictionary.
    /// </summary>
    public static List<string> Terms(SearchIndex index, string field)
    {
        using var searcher = index.OpenSearcher();
        var transaction = searcher.Transaction;
        Assert.Null(transaction.OpenTree(SearchIndex.TermIdsTree(field)));
        Assert.Null(transaction.OpenTree(SearchIndex.IdTermsTree(field)));
        var result = new List<string>();
        var terms = transaction.OpenTree(SearchIndex.TermsTree(field));
        var positions = transaction.OpenTree(SearchIndex.PositionsTree(field));
        var sealedPositions = transaction.OpenTree(SearchIndex.SealedPositionsTree(field));
        if (terms is null)
        {
            Assert.Equal(0, positions?.Count ?? 0);
            Assert.Equal(0, sealedPositions?.Count ?? 0);
            return result;
        }
        Assert.NotNull(positions);
        var sealedChunks = transaction.OpenTree(SearchIndex.SealedTree(field));
        var sealKey = new byte[8];
        long lists = 0, seals = 0;
        var cursor = terms.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var key = cursor.Key;
            Assert.True(TermEncoding.TryDecodeKey(key, out var term, out var termKeyLength));
            var isTerm = termKeyLength == key.Length;
            if (isTerm)
                result.Add(System.Text.Encoding.UTF8.GetString(term));
            if (isTerm && PostingStore.IsChunked(cursor.Value))
            {
                Assert.False(positions.TryGet(key, out _), $"The chunked term '{result[^1]}' has positions under its own key.");
                continue;
            }
            var list = isTerm ? cursor.Value : PostingStore.Chunk(sealedChunks, cursor.Value, sealKey);
            var count = PostingsDecoder.GetCount(list);
            var ids = new long[count];
            var frequencies = new int[count];
            PostingsDecoder.Decode(list, ids, frequencies);
            ReadOnlySpan<byte> encoded;
            if (!isTerm && PostingStore.IsSealed(cursor.Value))
            {
                Assert.NotNull(sealedPositions);
                // Reading the chunk leaves its sequence number's key in sealKey.
                Assert.True(sealedPositions.TryGet(sealKey, out encoded), "A sealed chunk has no positions.");
                Assert.False(positions.TryGet(key, out _), "A sealed chunk has positions under its chunk key.");
                seals++;
            }
            else
            {
                Assert.True(positions.TryGet(key, out encoded), "A posting list has no positions.");
                lists++;
            }
            PositionLists.Decode(encoded, frequencies, new int[PositionLists.Count(frequencies)]);
        }
        Assert.Equal(lists, positions.Count);
        Assert.Equal(seals, sealedPositions?.Count ?? 0);
        Assert.Equal(seals, sealedChunks?.Count ?? 0);
        result.Sort(StringComparer.Ordinal);
        return result;
    }
}
