using System.Text;

namespace Folio.Storage.Documents;

/// <summary>The trace a delete leaves, so indexers and subscriptions learn of it in etag order.</summary>
public readonly record struct Tombstone(long Etag, string Id, string Collection)
{
    internal static byte[] Encode(string lowerId, string collection)
    {
        var id = Encoding.UTF8.GetBytes(lowerId);
        var coll = Encoding.UTF8.GetBytes(collection);
        var record = new byte[2 + id.Length + coll.Length];
        System.Buffers.Binary.BinaryPrimitives.WriteUInt16LittleEndian(record, (ushort)id.Length);
        id.CopyTo(record, 2);
        coll.CopyTo(record, 2 + id.Length);
        return record;
    }

    internal static Tombstone Decode(long etag, ReadOnlySpan<byte> record)
    {
        int idLength = System.Buffers.Binary.BinaryPrimitives.ReadUInt16LittleEndian(record);
        return new Tombstone(etag, Encoding.UTF8.GetString(record.Slice(2, idLength)), Encoding.UTF8.GetString(record[(2 + idLength)..]));
    }
}
