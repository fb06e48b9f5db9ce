using System.Numerics;
using System.Runtime.InteropServices;

namespace Folio.Indexing.Search;

/// <summary>
/// A full-text field's tokens in an entry record (<see cref="EntryRecord"/>): the token count (a varint), then
/// when there are any, a byte with the width W in bits of the record's largest term id, then a little-endian bit
/// stream of the tokens in position order, each its term id and its distance from the previous token's position
/// (the first's from 0). Below <see cref="ClassFrom"/> bits an id takes W bits. From it, an id of bit length b
/// takes a 3-bit class: W − b when that is below 7, followed by the id's b − 1 bits below its top one, else 7
/// followed by the id in W − 7 bits. A distance takes a prefix code: <c>0</c> for 1, <c>10</c> for 2,
/// <c>110</c> for 3, <c>1110</c> for 0, else <c>1111</c> and the distance less 3 as an Elias gamma code (its
/// bit length less one in unary, then its bits below the top one).
/// </summary>
/// <remarks>
/// Term frequencies in text halve with each doubling of rank, so a record's ids spread evenly over bit
/// lengths up to its largest: varints spent two bytes on most of them, and a third on any distance past 2
/// (a removed stop word or two). At 1M benchmark records (17 tokens each, term ids up to 12 bits, distances
/// 1: 57%, 2: 23%, 3: 10%) ids in the largest's width and the distance code took about 1.7 bytes a token where
/// varints took 2.2; with the classes an id of 12 bits takes 14 and one of 5 bits 8, which saved about 0.6 bits
/// a token there (the ids lie nearer the width than evenly; docs/benchmarks.md).
/// </remarks>
internal static class TokenStream
{
    /// <summary>The widest term id a stream holds; ids are dictionary numbers, far below it.</summary>
    public const int MaxWidth = 63;

    /// <summary>The width from which ids are written with their class (below it they take the width).</summary>
    public const int ClassFrom = 8;

    /// <summary>The bits of an id's class.</summary>
    public const int ClassBits = 3;

    /// <summary>The class of ids written in the width less <see cref="RawClass"/> bits.</summary>
    public const int RawClass = 7;

    /// <summary>The fewest bits a token of a stream of width <paramref name="width"/> takes (its id, and one of distance).</summary>
    public static int MinTokenBits(int width) => (width < ClassFrom ? width : ClassBits + width - RawClass) + 1;

    /// <summary>Appends the tokens with term ids <paramref name="termIds"/> at distances <paramref name="distances"/> (each ≥ 0).</summary>
    public static void Write(List<byte> record, ReadOnlySpan<long> termIds, ReadOnlySpan<int> distances)
    {
        ByteCoding.WriteVarint(record, (ulong)termIds.Length);
        if (termIds.IsEmpty)
            return;
        ulong largest = 0;
        foreach (var id in termIds)
            largest |= (ulong)id;
        var width = Math.Max(1, 64 - BitOperations.LeadingZeroCount(largest));
        if (width > MaxWidth)
            throw new ArgumentOutOfRangeException(nameof(termIds), "A term id does not fit a token stream.");
        record.Add((byte)width);
        // The stream is written in place at the record's end, into room for its longest form, then cut to its length.
        var start = record.Count;
        var room = checked((int)((termIds.Length * (long)(width + 2 + MaxDistanceBits) + 7) / 8));
        CollectionsMarshal.SetCount(record, start + room);
        var writer = new BitSpanWriter(CollectionsMarshal.AsSpan(record).Slice(start, room));
        for (var i = 0; i < termIds.Length; i++)
        {
            WriteId(ref writer, (ulong)termIds[i], width);
            WriteDistance(ref writer, distances[i]);
        }
        CollectionsMarshal.SetCount(record, start + writer.Finish());
    }

    // The most bits a distance takes: the four-bit prefix, then the gamma code of a number below 2^31 (its length
    // of up to 30 in unary with its zero, then as many bits). An id takes at most its width and two.
    private const int MaxDistanceBits = 4 + 31 + 30;

    private static void WriteId(ref BitSpanWriter writer, ulong id, int width)
    {
        if (width < ClassFrom)
        {
            writer.Write(id, width);
            return;
        }
        var length = 64 - BitOperations.LeadingZeroCount(id);
        var @class = width - length;
        if (@class >= RawClass)
        {
            writer.Write(RawClass, ClassBits);
            writer.Write(id, width - RawClass);
            return;
        }
        writer.Write((ulong)@class, ClassBits);
        writer.Write(id, length - 1);
    }

    private static void WriteDistance(ref BitSpanWriter writer, int distance)
    {
        switch (distance)
        {
            case 1: writer.Write(0b0, 1); return;
            case 2: writer.Write(0b01, 2); return;
            case 3: writer.Write(0b011, 3); return;
            case 0: writer.Write(0b0111, 4); return;
        }
        ArgumentOutOfRangeException.ThrowIfNegative(distance);
        writer.Write(0b1111, 4);
        var gamma = (uint)(distance - 3);
        var length = 31 - BitOperations.LeadingZeroCount(gamma);
        // The bit length in unary (ones, then a zero), then the bits below the top one.
        writer.Write((1UL << length) - 1, length + 1);
        writer.Write(gamma & ((1u << length) - 1), length);
    }
}
