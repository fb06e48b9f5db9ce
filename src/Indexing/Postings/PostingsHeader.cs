using System.Buffers.Binary;

namespace Folio.Indexing.Postings;

/// <summary>
/// The parsed fixed part of an encoded posting list, and the block and stream decoders that read
/// the rest. Every offset is checked against the data before it is used, so corrupt input ends in
/// <see cref="InvalidDataException"/> rather than in a wrong read.
/// </summary>
internal readonly struct PostingsHeader
{
    public readonly int Count;
    public readonly bool HasFrequencies;
    public readonly int BlockCount;
    public readonly long FirstId;
    public readonly int FirstWidth;
    public readonly int SpanWidth;
    public readonly int OffsetWidth;
    public readonly int EntryWidth;
    public readonly int SkipStart;
    public readonly int BlocksStart;
    public readonly int BlockBytes;

    private const ulong SmallGapLimit = 1UL << 55;

    /// <summary>Where the varint stream of the entries after the last block starts.</summary>
    public readonly int StreamStart;

    private PostingsHeader(int count, bool hasFrequencies, int columns, long firstId, int skipStart, int blockBytes)
    {
        Count = count;
        HasFrequencies = hasFrequencies;
        FirstId = firstId;
        FirstWidth = (columns & 0b111) + 1;
        SpanWidth = ((columns >> 3) & 0b111) + 1;
        OffsetWidth = ((columns >> 6) & 0b11) + 1;
        BlockCount = columns < 0 ? 0 : count / PostingsFormat.BlockSize;
        EntryWidth = FirstWidth + SpanWidth + OffsetWidth;
        SkipStart = skipStart;
        BlocksStart = skipStart + BlockCount * EntryWidth;
        BlockBytes = blockBytes;
        StreamStart = BlocksStart + blockBytes;
    }

    /// <summary>Entries stored in the varint stream after the blocks (all of them when inline).</summary>
    public int StreamCount => Count - BlockCount * PostingsFormat.BlockSize;

    public static PostingsHeader Read(ReadOnlySpan<byte> data)
    {
        if (data.IsEmpty)
        {
            PostingsFormat.ThrowTruncated();
        }

        int flags = data[0];
        if ((flags & PostingsFormat.ReservedMask) != 0)
        {
            PostingsFormat.ThrowCorrupt("unknown format version or flags");
        }

        var hasFrequencies = (flags & PostingsFormat.FlagFrequencies) != 0;
        var pos = 1;
        var count = Varint.Read(data, ref pos);
        if (count > int.MaxValue)
        {
            PostingsFormat.ThrowCorrupt("entry count out of range");
        }

        var layout = flags & PostingsFormat.LayoutMask;
        if (layout == PostingsFormat.LayoutInline)
        {
            // A negative column byte marks the inline layout: no blocks, the stream starts here.
            var inline = new PostingsHeader((int)count, hasFrequencies, -1, 0, pos, 0);
            inline.CheckStreamFits(data.Length);
            return inline;
        }

        if (layout != PostingsFormat.LayoutBlocked)
        {
            PostingsFormat.ThrowCorrupt("unknown layout");
        }

        if (pos >= data.Length)
        {
            PostingsFormat.ThrowTruncated();
        }

        int columns = data[pos++];
        var firstId = Varint.Read(data, ref pos);
        var blockBytes = Varint.Read(data, ref pos);
        if (firstId > long.MaxValue)
        {
            PostingsFormat.ThrowCorrupt("first id out of range");
        }

        // The skip table and the blocks must fit before anything is read from them.
        var header = new PostingsHeader((int)count, hasFrequencies, columns, (long)firstId, pos, 0);
        if (blockBytes > (ulong)(data.Length - header.BlocksStart) || header.BlocksStart > data.Length)
        {
            PostingsFormat.ThrowTruncated();
        }

        header = new PostingsHeader((int)count, hasFrequencies, columns, (long)firstId, pos, (int)blockBytes);
        header.CheckStreamFits(data.Length);
        return header;
    }

    /// <summary>Each stream entry takes at least one byte, so a count the bytes cannot hold is
    /// caught here, before anyone sizes a buffer by it.</summary>
    private void CheckStreamFits(int length)
    {
        var remaining = length - StreamStart;
        if (StreamCount > remaining)
        {
            PostingsFormat.ThrowTruncated();
        }

        if (StreamCount == 0 && remaining != 0)
        {
            PostingsFormat.ThrowCorrupt("bytes after the end of the list");
        }
    }

    /// <summary>The first block whose last id is at least <paramref name="id"/>, or <see cref="BlockCount"/> when every block ends before it.</summary>
    public int BlockHolding(ReadOnlySpan<byte> data, long id)
    {
        if (BlockCount == 0 || ReadBlockLast(data, BlockCount - 1) < id)
        {
            return BlockCount;
        }

        int low = 0, high = BlockCount - 1;
        while (low < high)
        {
            var middle = (low + high) >>> 1;
            if (ReadBlockLast(data, middle) < id)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }

        return low;
    }

    public long ReadBlockLast(ReadOnlySpan<byte> data, int block)
    {
        ReadBlockBounds(data, block, out _, out var last);
        return last;
    }

    public void ReadBlockBounds(ReadOnlySpan<byte> data, int block, out long first, out long last)
    {
        var p = SkipStart + block * EntryWidth;
        var firstDelta = ReadColumn(data, p, FirstWidth);
        var span = ReadColumn(data, p + FirstWidth, SpanWidth);
        if (firstDelta > (ulong)(long.MaxValue - FirstId))
        {
            PostingsFormat.ThrowCorrupt("block first id out of range");
        }

        first = FirstId + (long)firstDelta;
        if (span > (ulong)(long.MaxValue - first))
        {
            PostingsFormat.ThrowCorrupt("block last id out of range");
        }

        last = first + (long)span;
    }

    /// <summary>
    /// Decodes block <paramref name="block"/> into <paramref name="ids"/> (and <paramref name="frequencies"/>
    /// when the list has them), checking that its ids all lie above <paramref name="previous"/>.
    /// </summary>
    public void DecodeBlock(ReadOnlySpan<byte> data, int block, long previous, Span<long> ids, Span<int> frequencies, Span<ulong> scratch)
    {
        ReadBlockBounds(data, block, out var first, out var last);
        if (first <= previous)
        {
            PostingsFormat.ThrowCorrupt("blocks out of order");
        }

        var p = SkipStart + block * EntryWidth + FirstWidth + SpanWidth;
        var start = ReadColumn(data, p, OffsetWidth);
        var end = block + 1 < BlockCount ? ReadColumn(data, p + EntryWidth, OffsetWidth) : (ulong)BlockBytes;
        if (start > end || end > (ulong)BlockBytes)
        {
            PostingsFormat.ThrowCorrupt("block offsets out of range");
        }

        var blockData = data.Slice(BlocksStart + (int)start, (int)(end - start));
        var pos = 0;
        var gaps = scratch.Slice(0, PostingsFormat.BlockSize - 1);
        var bound = BlockCodec.Read(blockData, ref pos, gaps);
        ids[0] = first;
        if (bound < SmallGapLimit)
        {
            // 127 gaps below 2^55 sum to less than 2^62, so the unsigned sum cannot wrap and one
            // check of the final id against the skip table covers the whole block.
            var sum = (ulong)first;
            var rest = ids.Slice(1, gaps.Length);
            for (var i = 0; i < gaps.Length; i++)
            {
                sum += gaps[i] + 1;
                rest[i] = (long)sum;
            }

            if (sum != (ulong)last)
            {
                PostingsFormat.ThrowCorrupt("block ids do not match the skip table");
            }
        }
        else
        {
            CheckedPrefixSum(gaps, first, last, ids);
        }

        if (HasFrequencies)
        {
            var values = scratch.Slice(0, PostingsFormat.BlockSize);
            BlockCodec.Read(blockData, ref pos, values);
            for (var i = 0; i < values.Length; i++)
            {
                var v = values[i];
                if (v >= int.MaxValue)
                {
                    PostingsFormat.ThrowCorrupt("frequency out of range");
                }

                frequencies[i] = (int)v + 1;
            }
        }

        if (pos != blockData.Length)
        {
            PostingsFormat.ThrowCorrupt("block length does not match its contents");
        }
    }

    /// <summary>Gaps that large could wrap an unsigned sum, so each is checked against the room left
    /// below the block's last id before it is added.</summary>
    private static void CheckedPrefixSum(ReadOnlySpan<ulong> gaps, long first, long last, Span<long> ids)
    {
        var current = (ulong)first;
        var limit = (ulong)last;
        for (var i = 0; i < gaps.Length; i++)
        {
            var gap = gaps[i];
            if (gap >= limit - current)
            {
                PostingsFormat.ThrowCorrupt("block ids do not match the skip table");
            }

            current += gap + 1;
            ids[i + 1] = (long)current;
        }

        if (current != limit)
        {
            PostingsFormat.ThrowCorrupt("block ids do not match the skip table");
        }
    }

    /// <summary>
    /// Decodes <paramref name="ids"/>.Length entries of the varint stream at <paramref name="position"/>,
    /// continuing after <paramref name="previous"/> (-1 at the start of an inline list).
    /// </summary>
    public void DecodeStream(ReadOnlySpan<byte> data, ref int position, long previous, Span<long> ids, Span<int> frequencies)
    {
        var pos = position;
        for (var i = 0; i < ids.Length; i++)
        {
            var v = Varint.Read(data, ref pos);
            ulong gap;
            if (HasFrequencies)
            {
                gap = v >> 1;
                if ((v & 1) != 0)
                {
                    frequencies[i] = 1;
                }
                else
                {
                    var f = Varint.Read(data, ref pos);
                    if (f > int.MaxValue - 2)
                    {
                        PostingsFormat.ThrowCorrupt("frequency out of range");
                    }

                    frequencies[i] = (int)f + 2;
                }
            }
            else
            {
                gap = v;
            }

            var next = previous + 1;
            if (gap > (ulong)(long.MaxValue - next))
            {
                PostingsFormat.ThrowCorrupt("id out of range");
            }

            previous = next + (long)gap;
            ids[i] = previous;
        }

        position = pos;
    }

    /// <summary>The id the varint stream continues from: the last block's last id, or -1 when inline.</summary>
    public long StreamBase(ReadOnlySpan<byte> data) => BlockCount == 0 ? -1 : ReadBlockLast(data, BlockCount - 1);

    private static ulong ReadColumn(ReadOnlySpan<byte> data, int position, int width)
    {
        if (position + sizeof(ulong) <= data.Length)
        {
            var raw = BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(position));
            return width == sizeof(ulong) ? raw : raw & ((1UL << (width * 8)) - 1);
        }

        ulong value = 0;
        for (var i = width - 1; i >= 0; i--)
        {
            value = (value << 8) | data[position + i];
        }

        return value;
    }
}
