using System.Buffers;
using System.Numerics;

namespace Folio.Indexing.Postings;

/// <summary>
/// Encodes a posting list (strictly increasing, non-negative int64 entry ids, optionally with a
/// term frequency per id) into the compact byte form read by <see cref="PostingsIterator"/> and
/// <see cref="PostingsDecoder"/>.
/// </summary>
/// <remarks>
/// Lists shorter than <see cref="BlockSize"/> are written inline as varint gaps, which is the
/// smallest form for them and keeps short lists inside a B+Tree leaf. Longer lists are written as
/// blocks of <see cref="BlockSize"/> ids, each bit-packed at its own width (or varint when that is
/// clearly smaller), behind a skip table that lets a reader jump to any block, followed by the
/// remaining ids as varint gaps.
/// </remarks>
public static class PostingsEncoder
{
    /// <summary>The number of ids per compressed block; lists shorter than this are written inline.</summary>
    public const int BlockSize = PostingsFormat.BlockSize;

    private readonly record struct BlockPlan(BlockCodec.SectionPlan Ids, BlockCodec.SectionPlan Frequencies);

    /// <summary>An upper bound of the encoded size of any list of <paramref name="count"/> ids, for
    /// sizing a destination before calling <see cref="Encode(ReadOnlySpan{long}, ReadOnlySpan{int}, Span{byte})"/>.</summary>
    /// <param name="count">The number of ids.</param>
    /// <param name="withFrequencies">Whether the list carries frequencies.</param>
    /// <returns>A size in bytes no encoding of such a list exceeds.</returns>
    public static int GetMaxEncodedLength(int count, bool withFrequencies)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);

        // Header (flags, count, columns, first id, block bytes) is under 32 bytes; a stream entry
        // takes at most 9 bytes (10 with the frequency bit) plus 5 for a frequency; a block is at
        // most its skip entry (20) and two varint sections, which stays under the stream bound
        // per id plus 24 bytes per block.
        var perId = withFrequencies ? 15L : 9L;
        var bound = 32L + count * perId + (count / BlockSize + 1) * 24L;
        return bound > Array.MaxLength ? throw new ArgumentOutOfRangeException(nameof(count), "The list is too large to encode.") : (int)bound;
    }

    /// <summary>Encodes a list into a new array of exactly the encoded size.</summary>
    /// <param name="ids">Strictly increasing, non-negative ids.</param>
    /// <param name="frequencies">One frequency (at least 1) per id, or empty for a list without frequencies.</param>
    /// <returns>The encoded list.</returns>
    public static byte[] EncodeToArray(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies = default) =>
        EncodeToArray(ids, frequencies, BlockEncodingPolicy.Auto);

    /// <summary>Encodes a list into <paramref name="destination"/>.</summary>
    /// <param name="ids">Strictly increasing, non-negative ids.</param>
    /// <param name="frequencies">One frequency (at least 1) per id, or empty for a list without frequencies.</param>
    /// <param name="destination">Where to write; <see cref="GetMaxEncodedLength"/> bytes always suffice.</param>
    /// <returns>The number of bytes written.</returns>
    /// <exception cref="ArgumentException">The ids are not strictly increasing and non-negative, a
    /// frequency is below 1, the frequencies do not match the ids, or the destination is too small.</exception>
    public static int Encode(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, Span<byte> destination) =>
        Encode(ids, frequencies, destination, BlockEncodingPolicy.Auto);

    /// <summary>Encodes a list into <paramref name="output"/>, asking it for exactly the encoded size
    /// (so a pooled writer hands out no more than needed).</summary>
    /// <param name="ids">Strictly increasing, non-negative ids.</param>
    /// <param name="frequencies">One frequency (at least 1) per id, or empty for a list without frequencies.</param>
    /// <param name="output">The writer to append the encoded list to.</param>
    /// <returns>The number of bytes written.</returns>
    public static int Encode(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, IBufferWriter<byte> output)
    {
        ArgumentNullException.ThrowIfNull(output);
        Validate(ids, frequencies);
        var plans = ids.Length >= BlockSize ? ArrayPool<BlockPlan>.Shared.Rent(ids.Length / BlockSize) : null;
        try
        {
            var length = Plan(ids, frequencies, BlockEncodingPolicy.Auto, plans);
            var written = Write(ids, frequencies, plans, output.GetSpan(length).Slice(0, length));
            output.Advance(written);
            return written;
        }
        finally
        {
            if (plans is not null)
            {
                ArrayPool<BlockPlan>.Shared.Return(plans);
            }
        }
    }

    internal static byte[] EncodeToArray(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, BlockEncodingPolicy policy)
    {
        Validate(ids, frequencies);
        var plans = ids.Length >= BlockSize ? ArrayPool<BlockPlan>.Shared.Rent(ids.Length / BlockSize) : null;
        try
        {
            var result = new byte[Plan(ids, frequencies, policy, plans)];
            Write(ids, frequencies, plans, result);
            return result;
        }
        finally
        {
            if (plans is not null)
            {
                ArrayPool<BlockPlan>.Shared.Return(plans);
            }
        }
    }

    internal static int Encode(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, Span<byte> destination, BlockEncodingPolicy policy)
    {
        Validate(ids, frequencies);
        var plans = ids.Length >= BlockSize ? ArrayPool<BlockPlan>.Shared.Rent(ids.Length / BlockSize) : null;
        try
        {
            var length = Plan(ids, frequencies, policy, plans);
            if (length > destination.Length)
            {
                throw new ArgumentException($"The destination holds {destination.Length} bytes; the list needs {length}.", nameof(destination));
            }

            return Write(ids, frequencies, plans, destination);
        }
        finally
        {
            if (plans is not null)
            {
                ArrayPool<BlockPlan>.Shared.Return(plans);
            }
        }
    }

    private static void Validate(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies)
    {
        if (!frequencies.IsEmpty && frequencies.Length != ids.Length)
        {
            throw new ArgumentException($"{frequencies.Length} frequencies for {ids.Length} ids.", nameof(frequencies));
        }

        var previous = -1L;
        for (var i = 0; i < ids.Length; i++)
        {
            if (ids[i] <= previous)
            {
                throw new ArgumentException($"Ids must be non-negative and strictly increasing; id {ids[i]} at index {i} follows {previous}.", nameof(ids));
            }

            previous = ids[i];
        }

        for (var i = 0; i < frequencies.Length; i++)
        {
            if (frequencies[i] < 1)
            {
                throw new ArgumentException($"Frequencies must be at least 1; index {i} has {frequencies[i]}.", nameof(frequencies));
            }
        }
    }

    /// <summary>Chooses every block's encoding and returns the exact encoded length, so writing can
    /// lay out the skip table (whose offset column width depends on the blocks' total size) first.</summary>
    private static int Plan(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, BlockEncodingPolicy policy, BlockPlan[]? plans)
    {
        var header = 1 + Varint.Length((ulong)ids.Length);
        if (plans is null)
        {
            return header + (int)StreamLength(ids, frequencies, -1);
        }

        var blockCount = ids.Length / BlockSize;
        Span<ulong> scratch = stackalloc ulong[BlockSize];
        long blockBytes = 0;
        ulong maxSpan = 0;
        var lastStart = 0L;
        for (var b = 0; b < blockCount; b++)
        {
            var blockIds = ids.Slice(b * BlockSize, BlockSize);
            FillGaps(blockIds, scratch);
            var idPlan = BlockCodec.Plan(scratch.Slice(0, BlockSize - 1), policy);
            var frequencyPlan = default(BlockCodec.SectionPlan);
            if (!frequencies.IsEmpty)
            {
                FillFrequencies(frequencies.Slice(b * BlockSize, BlockSize), scratch);
                frequencyPlan = BlockCodec.Plan(scratch, policy);
            }

            plans[b] = new BlockPlan(idPlan, frequencyPlan);
            lastStart = blockBytes;
            blockBytes += idPlan.Length + frequencyPlan.Length;
            maxSpan = Math.Max(maxSpan, (ulong)(blockIds[^1] - blockIds[0]));
        }

        var entryWidth = ByteWidth((ulong)(ids[(blockCount - 1) * BlockSize] - ids[0])) + ByteWidth(maxSpan) + ByteWidth((ulong)lastStart);
        var total = header + 1 + Varint.Length((ulong)ids[0]) + Varint.Length((ulong)blockBytes)
            + (long)blockCount * entryWidth + blockBytes
            + StreamLength(ids.Slice(blockCount * BlockSize), frequencies.IsEmpty ? frequencies : frequencies.Slice(blockCount * BlockSize), ids[blockCount * BlockSize - 1]);
        return total > Array.MaxLength ? throw new ArgumentException("The list is too large to encode.", nameof(ids)) : (int)total;
    }

    private static int Write(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, BlockPlan[]? plans, Span<byte> destination)
    {
        var flags = frequencies.IsEmpty ? 0 : PostingsFormat.FlagFrequencies;
        if (plans is null)
        {
            destination[0] = (byte)(PostingsFormat.LayoutInline | flags);
            var inlinePos = Varint.Write(destination, 1, (ulong)ids.Length);
            return WriteStream(ids, frequencies, -1, destination, inlinePos);
        }

        var blockCount = ids.Length / BlockSize;
        ulong maxSpan = 0;
        long blockBytes = 0;
        for (var b = 0; b < blockCount; b++)
        {
            maxSpan = Math.Max(maxSpan, (ulong)(ids[b * BlockSize + BlockSize - 1] - ids[b * BlockSize]));
            blockBytes += plans[b].Ids.Length + plans[b].Frequencies.Length;
        }

        var lastLength = plans[blockCount - 1].Ids.Length + plans[blockCount - 1].Frequencies.Length;
        var firstWidth = ByteWidth((ulong)(ids[(blockCount - 1) * BlockSize] - ids[0]));
        var spanWidth = ByteWidth(maxSpan);
        var offsetWidth = ByteWidth((ulong)(blockBytes - lastLength));

        destination[0] = (byte)(PostingsFormat.LayoutBlocked | flags);
        var pos = Varint.Write(destination, 1, (ulong)ids.Length);
        destination[pos++] = (byte)((firstWidth - 1) | ((spanWidth - 1) << 3) | ((offsetWidth - 1) << 6));
        pos = Varint.Write(destination, pos, (ulong)ids[0]);
        pos = Varint.Write(destination, pos, (ulong)blockBytes);

        var skip = pos;
        var blockPos = skip + blockCount * (firstWidth + spanWidth + offsetWidth);
        var blocksStart = blockPos;
        Span<ulong> scratch = stackalloc ulong[BlockSize];
        for (var b = 0; b < blockCount; b++)
        {
            var blockIds = ids.Slice(b * BlockSize, BlockSize);
            skip = WriteColumn(destination, skip, (ulong)(blockIds[0] - ids[0]), firstWidth);
            skip = WriteColumn(destination, skip, (ulong)(blockIds[^1] - blockIds[0]), spanWidth);
            skip = WriteColumn(destination, skip, (ulong)(blockPos - blocksStart), offsetWidth);

            FillGaps(blockIds, scratch);
            blockPos = BlockCodec.Write(scratch.Slice(0, BlockSize - 1), plans[b].Ids, destination, blockPos);
            if (!frequencies.IsEmpty)
            {
                FillFrequencies(frequencies.Slice(b * BlockSize, BlockSize), scratch);
                blockPos = BlockCodec.Write(scratch, plans[b].Frequencies, destination, blockPos);
            }
        }

        var rest = blockCount * BlockSize;
        return WriteStream(ids.Slice(rest), frequencies.IsEmpty ? frequencies : frequencies.Slice(rest), ids[rest - 1], destination, blockPos);
    }

    /// <summary>Gaps minus one after the block's first id: consecutive ids become zeros.</summary>
    private static void FillGaps(ReadOnlySpan<long> blockIds, Span<ulong> gaps)
    {
        for (var i = 1; i < blockIds.Length; i++)
        {
            gaps[i - 1] = (ulong)(blockIds[i] - blockIds[i - 1] - 1);
        }
    }

    private static void FillFrequencies(ReadOnlySpan<int> frequencies, Span<ulong> values)
    {
        for (var i = 0; i < frequencies.Length; i++)
        {
            values[i] = (ulong)(frequencies[i] - 1);
        }
    }

    private static long StreamLength(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, long previous)
    {
        long length = 0;
        for (var i = 0; i < ids.Length; i++)
        {
            var gap = (ulong)(ids[i] - previous - 1);
            previous = ids[i];
            if (frequencies.IsEmpty)
            {
                length += Varint.Length(gap);
            }
            else
            {
                var f = frequencies[i];
                length += Varint.Length((gap << 1) | (f == 1 ? 1UL : 0UL)) + (f == 1 ? 0 : Varint.Length((ulong)(f - 2)));
            }
        }

        return length;
    }

    private static int WriteStream(ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies, long previous, Span<byte> destination, int position)
    {
        for (var i = 0; i < ids.Length; i++)
        {
            var gap = (ulong)(ids[i] - previous - 1);
            previous = ids[i];
            if (frequencies.IsEmpty)
            {
                position = Varint.Write(destination, position, gap);
            }
            else
            {
                var f = frequencies[i];
                position = Varint.Write(destination, position, (gap << 1) | (f == 1 ? 1UL : 0UL));
                if (f != 1)
                {
                    position = Varint.Write(destination, position, (ulong)(f - 2));
                }
            }
        }

        return position;
    }

    private static int ByteWidth(ulong value) => Math.Max(1, (71 - BitOperations.LeadingZeroCount(value)) >> 3);

    private static int WriteColumn(Span<byte> destination, int position, ulong value, int width)
    {
        for (var i = 0; i < width; i++)
        {
            destination[position++] = (byte)value;
            value >>= 8;
        }

        return position;
    }
}
