namespace Folio.Indexing.Postings;

/// <summary>
/// Whole-list reads of an encoded posting list: its count and whether it has frequencies (from the
/// header alone), or every id at once. Use <see cref="PostingsIterator"/> to walk or skip instead.
/// </summary>
public static class PostingsDecoder
{
    /// <summary>Reads the number of ids from the header without decoding the list.</summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <returns>The number of ids.</returns>
    /// <exception cref="InvalidDataException">The header is corrupt or truncated.</exception>
    public static int GetCount(ReadOnlySpan<byte> encoded) => PostingsHeader.Read(encoded).Count;

    /// <summary>Whether the list stores a frequency per id, read from the header.</summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <returns><see langword="true"/> when the list was encoded with frequencies.</returns>
    /// <exception cref="InvalidDataException">The header is corrupt or truncated.</exception>
    public static bool HasFrequencies(ReadOnlySpan<byte> encoded) => PostingsHeader.Read(encoded).HasFrequencies;

    /// <summary>
    /// The frequency of <paramref name="id"/> in the list (1 in a list without frequencies), or 0 when the list lacks it:
    /// decodes only the block the skip table names for it, or the trailing stream up to it.
    /// </summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <param name="id">The id to look up.</param>
    /// <returns>The id's frequency, or 0.</returns>
    /// <exception cref="InvalidDataException">The list is corrupt or truncated.</exception>
    public static int FrequencyOf(ReadOnlySpan<byte> encoded, long id)
    {
        var header = PostingsHeader.Read(encoded);
        Span<long> ids = stackalloc long[PostingsFormat.BlockSize];
        Span<int> frequencies = stackalloc int[PostingsFormat.BlockSize];
        var low = header.BlockHolding(encoded, id);
        if (low < header.BlockCount)
        {
            Span<ulong> scratch = stackalloc ulong[PostingsFormat.BlockSize];
            header.DecodeBlock(encoded, low, low == 0 ? -1 : header.ReadBlockLast(encoded, low - 1), ids, frequencies, scratch);
            return FrequencyIn(ids, frequencies, id, header.HasFrequencies);
        }

        var position = header.StreamStart;
        var previous = header.StreamBase(encoded);
        for (var remaining = header.StreamCount; remaining > 0;)
        {
            var chunk = Math.Min(remaining, PostingsFormat.BlockSize);
            header.DecodeStream(encoded, ref position, previous, ids.Slice(0, chunk), frequencies);
            if (ids[chunk - 1] >= id)
            {
                return FrequencyIn(ids.Slice(0, chunk), frequencies, id, header.HasFrequencies);
            }

            previous = ids[chunk - 1];
            remaining -= chunk;
        }

        return 0;
    }

    private static int FrequencyIn(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, long id, bool hasFrequencies)
    {
        var index = ids.BinarySearch(id);
        return index < 0 ? 0 : hasFrequencies ? frequencies[index] : 1;
    }

    /// <summary>Decodes every id (and frequency) of the list, checking the whole encoding.</summary>
    /// <param name="encoded">An encoded posting list.</param>
    /// <param name="ids">Receives the ids; at least <see cref="GetCount"/> long.</param>
    /// <param name="frequencies">Receives the frequencies (1 for every id when the list has none);
    /// empty to skip them, otherwise at least <see cref="GetCount"/> long.</param>
    /// <returns>The number of ids written.</returns>
    /// <exception cref="InvalidDataException">The list is corrupt or truncated.</exception>
    /// <exception cref="ArgumentException">A destination is too small.</exception>
    public static int Decode(ReadOnlySpan<byte> encoded, Span<long> ids, Span<int> frequencies)
    {
        var header = PostingsHeader.Read(encoded);
        var count = header.Count;
        if (ids.Length < count || (!frequencies.IsEmpty && frequencies.Length < count))
        {
            throw new ArgumentException($"The list has {count} ids; the destination is too small.", nameof(ids));
        }

        Span<ulong> scratch = stackalloc ulong[PostingsFormat.BlockSize];
        Span<int> discard = stackalloc int[PostingsFormat.BlockSize];
        var previous = -1L;
        for (var b = 0; b < header.BlockCount; b++)
        {
            var at = b * PostingsFormat.BlockSize;
            var blockIds = ids.Slice(at, PostingsFormat.BlockSize);
            var blockFrequencies = frequencies.IsEmpty ? discard : frequencies.Slice(at, PostingsFormat.BlockSize);
            header.DecodeBlock(encoded, b, previous, blockIds, blockFrequencies, scratch);
            previous = blockIds[^1];
        }

        var rest = header.BlockCount * PostingsFormat.BlockSize;
        var position = header.StreamStart;
        var streamIds = ids.Slice(rest, header.StreamCount);
        if (frequencies.IsEmpty)
        {
            // The stream interleaves frequencies with gaps, so they are decoded in chunks even when dropped.
            while (!streamIds.IsEmpty)
            {
                var chunk = Math.Min(streamIds.Length, PostingsFormat.BlockSize);
                header.DecodeStream(encoded, ref position, previous, streamIds.Slice(0, chunk), discard);
                previous = streamIds[chunk - 1];
                streamIds = streamIds.Slice(chunk);
            }
        }
        else
        {
            header.DecodeStream(encoded, ref position, previous, streamIds, frequencies.Slice(rest, header.StreamCount));
        }

        if (position != encoded.Length)
        {
            PostingsFormat.ThrowCorrupt("bytes after the end of the list");
        }

        if (!frequencies.IsEmpty && !header.HasFrequencies)
        {
            frequencies.Slice(0, count).Fill(1);
        }

        return count;
    }
}
