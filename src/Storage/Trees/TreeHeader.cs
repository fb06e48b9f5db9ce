using System.Buffers.Binary;

namespace Folio.Storage.Trees;

/// <summary>
/// The persistent description of a tree: the value stored under its name in the root tree (and,
/// for the root tree itself, in the state page). 64 bytes:
/// root page, entry count, branch/leaf/overflow page counts (value heap runs counted as overflow), depth, kind, fixed
/// value size, the value heap run values are appended to (0 for none: page 0 is the file header).
/// </summary>
internal struct TreeHeader
{
    public const int Size = 64;

    public long RootPage;
    public long EntryCount;
    public long BranchPages;
    public long LeafPages;
    public long OverflowPages;
    public int Depth;
    public TreeKind Kind;
    public int FixedValueSize;
    public long OpenHeapRun;

    public readonly void WriteTo(Span<byte> destination)
    {
        destination[..Size].Clear();
        BinaryPrimitives.WriteInt64LittleEndian(destination, RootPage);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], EntryCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], BranchPages);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], LeafPages);
        BinaryPrimitives.WriteInt64LittleEndian(destination[32..], OverflowPages);
        BinaryPrimitives.WriteInt32LittleEndian(destination[40..], Depth);
        destination[44] = (byte)Kind;
        BinaryPrimitives.WriteInt32LittleEndian(destination[48..], FixedValueSize);
        BinaryPrimitives.WriteInt64LittleEndian(destination[56..], OpenHeapRun);
    }

    public static TreeHeader ReadFrom(ReadOnlySpan<byte> source)
    {
        if (source.Length < Size)
            throw new CorruptionException($"A tree header holds {source.Length} bytes instead of {Size}.");
        return new TreeHeader
        {
            RootPage = BinaryPrimitives.ReadInt64LittleEndian(source),
            EntryCount = BinaryPrimitives.ReadInt64LittleEndian(source[8..]),
            BranchPages = BinaryPrimitives.ReadInt64LittleEndian(source[16..]),
            LeafPages = BinaryPrimitives.ReadInt64LittleEndian(source[24..]),
            OverflowPages = BinaryPrimitives.ReadInt64LittleEndian(source[32..]),
            Depth = BinaryPrimitives.ReadInt32LittleEndian(source[40..]),
            Kind = (TreeKind)source[44],
            FixedValueSize = BinaryPrimitives.ReadInt32LittleEndian(source[48..]),
            OpenHeapRun = BinaryPrimitives.ReadInt64LittleEndian(source[56..]),
        };
    }
}
