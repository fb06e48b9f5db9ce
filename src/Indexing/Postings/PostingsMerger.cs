using System.Buffers;

namespace Folio.Indexing.Postings;

/// <summary>
/// Applies a batch of index changes to an encoded posting list, producing a new encoded list:
/// how an indexing batch updates a term.
/// </summary>
public static class PostingsMerger
{
    /// <summary>
    /// Writes <c>(existing − removals) ∪ additions</c> to <paramref name="output"/>. Removals apply
    /// first, so an id in both batches stays, with its new frequency; an added id already in the
    /// list takes the added frequency; removing an absent id is not an error.
    /// </summary>
    /// <param name="existing">The current encoded list, or empty when the term has no list yet.</param>
    /// <param name="additions">Strictly increasing, non-negative ids to add.</param>
    /// <param name="additionFrequencies">One frequency per added id when the list has frequencies
    /// (an empty existing list takes them up); empty otherwise.</param>
    /// <param name="removals">Strictly increasing ids to remove.</param>
    /// <param name="output">Receives the merged encoded list.</param>
    /// <returns>The number of ids in the merged list (0 lets the caller delete the term instead of
    /// storing an empty list).</returns>
    /// <exception cref="InvalidDataException"><paramref name="existing"/> is corrupt.</exception>
    /// <exception cref="ArgumentException">A batch is not strictly increasing, or frequencies are
    /// given for a list without them (or missing for a list with them).</exception>
    public static int Merge(
        ReadOnlySpan<byte> existing,
        ReadOnlySpan<long> additions,
        ReadOnlySpan<int> additionFrequencies,
        ReadOnlySpan<long> removals,
        IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        var existingCount = 0;
        var withFrequencies = !additionFrequencies.IsEmpty;
        if (!existing.IsEmpty)
        {
            existingCount = PostingsDecoder.GetCount(existing);
            if (existingCount > 0)
            {
                var existingHasFrequencies = PostingsDecoder.HasFrequencies(existing);
                if (!additions.IsEmpty && existingHasFrequencies != withFrequencies)
                {
                    throw new ArgumentException(
                        existingHasFrequencies ? "The list has frequencies; the additions need them too." : "The list has no frequencies; the additions must not have any.",
                        nameof(additionFrequencies));
                }

                withFrequencies = existingHasFrequencies;
            }
        }

        CheckIncreasing(additions, nameof(additions));
        CheckIncreasing(removals, nameof(removals));
        if (!additionFrequencies.IsEmpty && additionFrequencies.Length != additions.Length)
        {
            throw new ArgumentException($"{additionFrequencies.Length} frequencies for {additions.Length} additions.", nameof(additionFrequencies));
        }

        var oldIds = ArrayPool<long>.Shared.Rent(existingCount);
        var oldFrequencies = withFrequencies ? ArrayPool<int>.Shared.Rent(existingCount) : [];
        var newIds = ArrayPool<long>.Shared.Rent(existingCount + additions.Length);
        var newFrequencies = withFrequencies ? ArrayPool<int>.Shared.Rent(existingCount + additions.Length) : [];
        try
        {
            if (existingCount > 0)
            {
                PostingsDecoder.Decode(existing, oldIds, withFrequencies ? oldFrequencies : default);
            }

            var count = MergeInto(
                oldIds.AsSpan(0, existingCount),
                withFrequencies ? oldFrequencies.AsSpan(0, existingCount) : default,
                additions,
                additionFrequencies,
                removals,
                newIds,
                newFrequencies);
            PostingsEncoder.Encode(newIds.AsSpan(0, count), withFrequencies ? newFrequencies.AsSpan(0, count) : default, output);
            return count;
        }
        finally
        {
            ArrayPool<long>.Shared.Return(oldIds);
            ArrayPool<long>.Shared.Return(newIds);
            if (withFrequencies)
            {
                ArrayPool<int>.Shared.Return(oldFrequencies);
                ArrayPool<int>.Shared.Return(newFrequencies);
            }
        }
    }

    /// <summary>Like <see cref="Merge(ReadOnlySpan{byte}, ReadOnlySpan{long}, ReadOnlySpan{int}, ReadOnlySpan{long}, IBufferWriter{byte})"/>,
    /// returning the merged list as a new array.</summary>
    /// <param name="existing">The current encoded list, or empty when the term has no list yet.</param>
    /// <param name="additions">Strictly increasing, non-negative ids to add.</param>
    /// <param name="additionFrequencies">One frequency per added id when the list has frequencies; empty otherwise.</param>
    /// <param name="removals">Strictly increasing ids to remove.</param>
    /// <returns>The merged encoded list.</returns>
    public static byte[] Merge(ReadOnlySpan<byte> existing, ReadOnlySpan<long> additions, ReadOnlySpan<int> additionFrequencies, ReadOnlySpan<long> removals)
    {
        var writer = new ArrayBufferWriter<byte>();
        Merge(existing, additions, additionFrequencies, removals, writer);
        return writer.WrittenSpan.ToArray();
    }

    private static int MergeInto(
        ReadOnlySpan<long> oldIds,
        ReadOnlySpan<int> oldFrequencies,
        ReadOnlySpan<long> additions,
        ReadOnlySpan<int> additionFrequencies,
        ReadOnlySpan<long> removals,
        Span<long> ids,
        Span<int> frequencies)
    {
        var withFrequencies = !additionFrequencies.IsEmpty || !oldFrequencies.IsEmpty;
        int o = 0, a = 0, r = 0, n = 0;
        while (o < oldIds.Length || a < additions.Length)
        {
            // Take the smaller head; on a tie the addition wins and the old entry is dropped.
            var fromOld = a == additions.Length || (o < oldIds.Length && oldIds[o] < additions[a]);
            if (fromOld)
            {
                var id = oldIds[o];
                while (r < removals.Length && removals[r] < id)
                {
                    r++;
                }

                if (r == removals.Length || removals[r] != id)
                {
                    ids[n] = id;
                    if (withFrequencies)
                    {
                        frequencies[n] = oldFrequencies[o];
                    }

                    n++;
                }

                o++;
            }
            else
            {
                if (o < oldIds.Length && oldIds[o] == additions[a])
                {
                    o++;
                }

                ids[n] = additions[a];
                if (withFrequencies)
                {
                    frequencies[n] = additionFrequencies[a];
                }

                n++;
                a++;
            }
        }

        return n;
    }

    private static void CheckIncreasing(ReadOnlySpan<long> ids, string name)
    {
        for (var i = 1; i < ids.Length; i++)
        {
            if (ids[i] <= ids[i - 1])
            {
                throw new ArgumentException($"The ids must be strictly increasing; index {i} has {ids[i]} after {ids[i - 1]}.", name);
            }
        }
    }
}
