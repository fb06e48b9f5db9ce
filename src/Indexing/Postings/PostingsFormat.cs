using System.Diagnostics.CodeAnalysis;

namespace Folio.Indexing.Postings;

/// <summary>
/// Constants of the encoded posting-list layout, shared by the encoder and the readers.
/// </summary>
/// <remarks>
/// <para>Every encoded list starts with a flags byte and the entry count as a varint, so the count
/// is readable without touching the rest. The flags byte holds the layout in bits 0-1
/// (<see cref="LayoutInline"/> or <see cref="LayoutBlocked"/>), <see cref="FlagFrequencies"/> in bit 2;
/// bits 3-7 are a format version and must be zero today.</para>
/// <para>Inline: the entries as a varint stream. An entry is the gap <c>id - previous - 1</c> (the
/// first entry is the id itself); with frequencies it is <c>gap &lt;&lt; 1 | (freq == 1)</c> followed,
/// when the frequency is not 1, by <c>freq - 2</c>. Storing gap minus one makes a run of
/// consecutive ids cost zero bits in a packed block.</para>
/// <para>Blocked: a byte with the skip-table column widths, the first id and the total size of the
/// blocks as varints, the skip table (per block: first id minus the list's first id, last id
/// minus the block's first id, start offset of the block; little-endian with the byte widths
/// of the column byte), the blocks, then the fewer than <see cref="BlockSize"/> remaining entries as
/// an inline stream continuing from the last block's last id.</para>
/// <para>A block is the 127 gaps after its first id (the first id lives in the skip table), then,
/// when the list has frequencies, the 128 values <c>freq - 1</c>; each part is a section written
/// by <see cref="BlockCodec"/>.</para>
/// </remarks>
internal static class PostingsFormat
{
    /// <summary>Ids per block, as in Lucene 5-9. 128 keeps a block's decoded ids (1 KB) and
    /// frequencies in L1, and the skip entry (3 to 20 bytes) stays a small share of a block even
    /// when consecutive ids pack to zero bits (tests/Benchmarks/Postings/README.md).</summary>
    public const int BlockSize = 128;

    public const int LayoutInline = 1;
    public const int LayoutBlocked = 2;
    public const int LayoutMask = 0b11;
    public const int FlagFrequencies = 0b100;
    public const int ReservedMask = 0b1111_1000;

    [DoesNotReturn]
    public static void ThrowCorrupt(string reason) =>
        throw new InvalidDataException("Corrupt posting list: " + reason + ".");

    [DoesNotReturn]
    public static void ThrowTruncated() =>
        throw new InvalidDataException("Corrupt posting list: the data ends before the list does.");
}
