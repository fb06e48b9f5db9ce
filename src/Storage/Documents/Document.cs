using System.Buffers.Binary;
using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// A stored document as a view into its page: valid while the read transaction it came from is open.
/// <see cref="Json"/> is the complete document, metadata included, ready to be written as it is.
/// </summary>
public readonly ref struct Document
{
    internal const int HeaderSize = 24;

    private readonly ReadOnlySpan<byte> _record;

    internal Document(ReadOnlySpan<byte> record)
    {
        if (record.Length < HeaderSize)
            throw new CorruptionException("A document record is shorter than its header.");
        _record = record;
    }

    /// <summary>The etag of the write that produced this version.</summary>
    public long Etag => BinaryPrimitives.ReadInt64LittleEndian(_record);

    /// <summary>When this version was written (UTC).</summary>
    public DateTime LastModified => new(BinaryPrimitives.ReadInt64LittleEndian(_record[8..]), DateTimeKind.Utc);

    /// <summary>The id with the casing it was stored with, as UTF-8.</summary>
    public ReadOnlySpan<byte> Id => _record.Slice(HeaderSize, IdLength);

    /// <summary>The collection's name as UTF-8.</summary>
    public ReadOnlySpan<byte> Collection => _record.Slice(HeaderSize + IdLength, CollectionLength);

    /// <summary>The whole document as stored JSON (UTF-8).</summary>
    public ReadOnlySpan<byte> Json => _record[(HeaderSize + IdLength + CollectionLength)..];

    /// <summary>The id as a string.</summary>
    public string IdString => Encoding.UTF8.GetString(Id);

    /// <summary>The collection as a string.</summary>
    public string CollectionString => Encoding.UTF8.GetString(Collection);

    private int IdLength => BinaryPrimitives.ReadUInt16LittleEndian(_record[16..]);

    private int CollectionLength => BinaryPrimitives.ReadUInt16LittleEndian(_record[18..]);

    /// <summary>Lays out a record: etag, last-modified ticks, id and collection lengths, then id, collection and JSON.</summary>
    internal static void WriteHeader(Span<byte> record, long etag, DateTime lastModified, ReadOnlySpan<byte> id, ReadOnlySpan<byte> collection)
    {
        BinaryPrimitives.WriteInt64LittleEndian(record, etag);
        BinaryPrimitives.WriteInt64LittleEndian(record[8..], lastModified.Ticks);
        BinaryPrimitives.WriteUInt16LittleEndian(record[16..], (ushort)id.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(record[18..], (ushort)collection.Length);
        BinaryPrimitives.WriteInt32LittleEndian(record[20..], 0);
        id.CopyTo(record[HeaderSize..]);
        collection.CopyTo(record[(HeaderSize + id.Length)..]);
    }
}
