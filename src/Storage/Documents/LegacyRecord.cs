using System.Buffers.Binary;

namespace Folio.Storage.Documents;

/// <summary>
/// A document record as documents formats 1-5 laid it out, read only to move a store to format 6's layout
/// (<see cref="Document"/>): a 24-byte header (etag and last-modified ticks, 8 bytes each; the inline id's and the
/// collection's lengths, 2 bytes each; the body flags; the record flags, 1 for an id left to the key and 2 for a body a
/// compaction wrote; the dictionary version, 2 bytes), the inline id, the collection's name, then the body, a compressed
/// one after the whole JSON's length in 4 bytes.
/// </summary>
internal readonly ref struct LegacyRecord
{
    private const int HeaderSize = 24;

    /// <summary>Reads the record stored under <paramref name="key"/>; a <see cref="CorruptionException"/> when it does not hold what its header says.</summary>
    public LegacyRecord(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record)
    {
        if (record.Length < HeaderSize)
            throw new CorruptionException("A document record of format 5 or before is shorter than its header.");
        Etag = BinaryPrimitives.ReadInt64LittleEndian(record);
        var ticks = BinaryPrimitives.ReadInt64LittleEndian(record[8..]);
        if (Etag < 0 || (ulong)ticks > (ulong)DateTime.MaxValue.Ticks)
            throw new CorruptionException($"A document record of format 5 or before under '{System.Text.Encoding.UTF8.GetString(key)}' holds etag {Etag} and a last-modified time of {ticks} ticks, which no write made.");
        LastModified = new DateTime(ticks, DateTimeKind.Utc);
        int idLength = BinaryPrimitives.ReadUInt16LittleEndian(record[16..]);
        int collectionLength = BinaryPrimitives.ReadUInt16LittleEndian(record[18..]);
        BodyFlags = record[20];
        var recordFlags = record[21];
        DictionaryVersion = BinaryPrimitives.ReadUInt16LittleEndian(record[22..]);
        if (BodyFlags > Document.CompressedPrefixMagiclessFlag || (recordFlags & ~3) != 0 || HeaderSize + idLength + collectionLength > record.Length)
            throw new CorruptionException($"A document record of format 5 or before under '{System.Text.Encoding.UTF8.GetString(key)}' does not hold what its header says.");
        Compacted = (recordFlags & 2) != 0;
        Id = (recordFlags & 1) != 0 ? key : record.Slice(HeaderSize, idLength);
        Collection = record.Slice(HeaderSize + idLength, collectionLength);
        var body = record[(HeaderSize + idLength + collectionLength)..];
        if (BodyFlags == 0)
        {
            RawLength = body.Length;
            Body = body;
        }
        else
        {
            if (body.Length < 4 || BinaryPrimitives.ReadInt32LittleEndian(body) < 0)
                throw new CorruptionException($"Document '{System.Text.Encoding.UTF8.GetString(Id)}' has a compressed body too short to hold its length.");
            RawLength = BinaryPrimitives.ReadInt32LittleEndian(body);
            Body = body[4..];
        }
    }

    /// <summary>The etag of the write that produced this version.</summary>
    public long Etag { get; }

    /// <summary>When this version was written (UTC).</summary>
    public DateTime LastModified { get; }

    /// <summary>The id as stored (from the key when the record left it out).</summary>
    public ReadOnlySpan<byte> Id { get; }

    /// <summary>The collection's name.</summary>
    public ReadOnlySpan<byte> Collection { get; }

    /// <summary>The body's form (<see cref="Document.BodyFlags"/>).</summary>
    public byte BodyFlags { get; }

    /// <summary>Whether a compaction wrote the body.</summary>
    public bool Compacted { get; }

    /// <summary>The dictionary a compressed body was made with.</summary>
    public int DictionaryVersion { get; }

    /// <summary>The whole JSON's length.</summary>
    public int RawLength { get; }

    /// <summary>The JSON, or the compressed frame without the length in front of it.</summary>
    public ReadOnlySpan<byte> Body { get; }
}
