using System.Buffers.Binary;
using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// A stored document as a view into its page, and for a compressed body into the buffer it was decompressed to:
/// a document loaded by id is valid while the reader it came from is open, one read through a cursor until the
/// cursor moves. <see cref="Json"/> is the complete document, metadata included, ready to be written as it is.
/// </summary>
public readonly ref struct Document
{
    internal const int HeaderSize = 24;

    /// <summary>Body flag: the body is a Zstd frame (after its 4-byte raw length) made with the dictionary the header names.</summary>
    internal const byte CompressedFlag = 1;

    /// <summary>
    /// Body flag: like <see cref="CompressedFlag"/>, but the frame holds the JSON only up to where the store's own
    /// metadata goes; a read appends that from the header (<see cref="StoreMetadata"/>), and the 4-byte length is the
    /// whole JSON's. The store's metadata (id, change vector, date) differs in every document, so a dictionary cannot
    /// take it out, and it cost a small document a tenth of its compressed size.
    /// </summary>
    internal const byte CompressedPrefixFlag = 2;

    /// <summary>
    /// Body flag: like <see cref="CompressedPrefixFlag"/>, with a frame written without Zstd's 4-byte magic number
    /// (the flag already says what the bytes are); how bodies are compressed since documents format 3.
    /// </summary>
    internal const byte CompressedPrefixMagiclessFlag = 3;

    /// <summary>
    /// Record flag: the id is not in the record because it is byte for byte the key the record is stored under (an id
    /// already in lower case, as most are); a read takes it from the key. Saves the id's length in every such record.
    /// </summary>
    private const byte IdIsKeyFlag = 1;

    /// <summary>
    /// Record flag: a compaction compressed the body with the collection's dictionary at its own level
    /// (<see cref="Compression.DocumentCompressionOptions.CompactionLevel"/>), or tried and found it would come out no
    /// smaller, so later compactions leave it as it is while the dictionary stays current. Reads ignore it: the frame
    /// is an ordinary one, which is why older builds of the same documents format read it too.
    /// </summary>
    private const byte CompactedFlag = 2;

    private readonly ReadOnlySpan<byte> _record;
    private readonly ReadOnlySpan<byte> _id;
    private readonly ReadOnlySpan<byte> _json;

    /// <summary>
    /// A view of the record stored under <paramref name="key"/> whose <see cref="Json"/> is the stored body as it is
    /// (plain, or compressed for callers that only read the header).
    /// </summary>
    internal Document(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record)
    {
        if (record.Length < HeaderSize)
            throw new CorruptionException("A document record is shorter than its header.");
        _record = record;
        var idLength = IdLength;
        if ((record[21] & IdIsKeyFlag) != 0)
        {
            if (key.IsEmpty)
                throw new CorruptionException("A document record that takes its id from its key was read without the key.");
            _id = key;
        }
        else
        {
            _id = record.Slice(HeaderSize, idLength);
        }
        _json = record[(HeaderSize + idLength + CollectionLength)..];
    }

    /// <summary>A view of a record whose body was decompressed to <paramref name="json"/>.</summary>
    internal Document(Document stored, ReadOnlySpan<byte> json)
    {
        _record = stored._record;
        _id = stored._id;
        _json = json;
    }

    /// <summary>The etag of the write that produced this version.</summary>
    public long Etag => BinaryPrimitives.ReadInt64LittleEndian(_record);

    /// <summary>When this version was written (UTC).</summary>
    public DateTime LastModified => new(BinaryPrimitives.ReadInt64LittleEndian(_record[8..]), DateTimeKind.Utc);

    /// <summary>The id with the casing it was stored with, as UTF-8.</summary>
    public ReadOnlySpan<byte> Id => _id;

    /// <summary>The collection's name as UTF-8.</summary>
    public ReadOnlySpan<byte> Collection => _record.Slice(HeaderSize + IdLength, CollectionLength);

    /// <summary>The whole document as stored JSON (UTF-8).</summary>
    public ReadOnlySpan<byte> Json => _json;

    /// <summary>How the body is stored: 0 as it is, otherwise compressed in one of the forms the flags above name.</summary>
    internal byte BodyFlags => _record[20];

    /// <summary>Whether the body is compressed, any way; its first 4 bytes are then the whole JSON's length.</summary>
    internal bool IsCompressed => BodyFlags is CompressedFlag or CompressedPrefixFlag or CompressedPrefixMagiclessFlag;

    /// <summary>Whether the compressed frame holds the JSON only up to the store's metadata, which reads append.</summary>
    internal bool HoldsPrefix => BodyFlags is CompressedPrefixFlag or CompressedPrefixMagiclessFlag;

    /// <summary>Whether the compressed frame was written without Zstd's magic number.</summary>
    internal bool IsMagicless => BodyFlags == CompressedPrefixMagiclessFlag;

    /// <summary>Whether a compaction compressed the body at its level, or found that level gave nothing (<see cref="CompactedFlag"/>).</summary>
    internal bool IsCompacted => (_record[21] & CompactedFlag) != 0;

    /// <summary>The dictionary version a compressed body was made with (0: none).</summary>
    internal int DictionaryVersion => BinaryPrimitives.ReadUInt16LittleEndian(_record[22..]);

    /// <summary>The body as stored: the JSON itself, or for a compressed body its raw length and frame.</summary>
    internal ReadOnlySpan<byte> StoredBody => _record[(HeaderSize + IdLength + CollectionLength)..];

    /// <summary>The id as a string.</summary>
    public string IdString => Encoding.UTF8.GetString(Id);

    /// <summary>The collection as a string.</summary>
    public string CollectionString => Encoding.UTF8.GetString(Collection);

    private int IdLength => BinaryPrimitives.ReadUInt16LittleEndian(_record[16..]);

    private int CollectionLength => BinaryPrimitives.ReadUInt16LittleEndian(_record[18..]);

    /// <summary>
    /// Lays out a record: etag, last-modified ticks, id and collection lengths, the body flags, the record flags
    /// and the dictionary version, then the id (unless it is the key, <see cref="IdIsKeyFlag"/>), the collection and the body.
    /// <paramref name="compacted"/>: a compaction wrote the body (<see cref="CompactedFlag"/>).
    /// </summary>
    internal static void WriteHeader(Span<byte> record, long etag, DateTime lastModified, ReadOnlySpan<byte> key, ReadOnlySpan<byte> id, ReadOnlySpan<byte> collection, byte bodyFlags = 0, int dictionaryVersion = 0, bool compacted = false)
    {
        var idIsKey = id.SequenceEqual(key);
        ReadOnlySpan<byte> inlineId = idIsKey ? default : id;
        BinaryPrimitives.WriteInt64LittleEndian(record, etag);
        BinaryPrimitives.WriteInt64LittleEndian(record[8..], lastModified.Ticks);
        BinaryPrimitives.WriteUInt16LittleEndian(record[16..], (ushort)inlineId.Length);
        BinaryPrimitives.WriteUInt16LittleEndian(record[18..], (ushort)collection.Length);
        record[20] = bodyFlags;
        record[21] = (byte)((idIsKey ? IdIsKeyFlag : 0) | (compacted ? CompactedFlag : 0));
        BinaryPrimitives.WriteUInt16LittleEndian(record[22..], (ushort)dictionaryVersion);
        inlineId.CopyTo(record[HeaderSize..]);
        collection.CopyTo(record[(HeaderSize + inlineId.Length)..]);
    }

    /// <summary>The bytes <see cref="WriteHeader"/> lays out before the body for these values.</summary>
    internal static int HeaderLength(ReadOnlySpan<byte> key, ReadOnlySpan<byte> id, ReadOnlySpan<byte> collection) =>
        HeaderSize + (id.SequenceEqual(key) ? 0 : id.Length) + collection.Length;

    /// <summary>Whether the record carries its id although the key it is stored under is the same bytes (written before <see cref="IdIsKeyFlag"/>).</summary>
    internal bool CarriesIdItsKeyHolds(ReadOnlySpan<byte> key) => (_record[21] & IdIsKeyFlag) == 0 && _id.SequenceEqual(key);
}
