using System.Buffers.Binary;

namespace Folio.Indexing.Search;

/// <summary>A field's totals for BM25: how many entries have it and how many tokens they hold in all.</summary>
public readonly record struct FieldStats(long DocumentCount, long TotalLength)
{
    /// <summary>The average field length (1 when the field is empty, to keep BM25 finite).</summary>
    public double AverageLength => DocumentCount == 0 ? 1 : Math.Max(1e-9, (double)TotalLength / DocumentCount);

    internal static FieldStats Read(ReadOnlySpan<byte> value) =>
        new(BinaryPrimitives.ReadInt64LittleEndian(value), BinaryPrimitives.ReadInt64LittleEndian(value[8..]));

    internal void Write(Span<byte> destination)
    {
        BinaryPrimitives.WriteInt64LittleEndian(destination, DocumentCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], TotalLength);
    }
}
