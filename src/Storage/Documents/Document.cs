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
    /// <summary>Body flag: the body is a Zstd frame made with the dictionary the record names.</summary>
    internal const byte CompressedFlag = 1;

    /// <summary>
    /// Body flag: like <see cref="CompressedFlag"/>, but the frame holds the JSON only up to where the store's own
    /// metadata goes; a read appends that from the header (<see cref="StoreMetadata"/>), and the raw length is the
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
    /// Body flag beside <see cref="CompressedPrefixMagiclessFlag"/>: the frame is stored bare, without the 4 bytes a read
    /// puts back (<see cref="Compression.BareFrame"/>); how bodies of one block are compressed since documents format 7.
    /// </summary>
    internal const byte BareFrameFlag = 64;

    /// <summary>The form of a bare frame's body: <see cref="CompressedPrefixMagiclessFlag"/> with <see cref="BareFrameFlag"/>.</summary>
    internal const byte CompressedBareFlags = CompressedPrefixMagiclessFlag | BareFrameFlag;

    /// <summary>The body flags of a frame the write path or a compaction made, bare or whole.</summary>
    internal static byte CompressedForm(bool bare) => bare ? CompressedBareFlags : CompressedPrefixMagiclessFlag;

    private const byte BodyFormMask = 3;

    private const byte BodyFlagsMask = BodyFormMask | BareFrameFlag;

    /// <summary>
    /// Layout flag: the id is in the record because it is not byte for byte the key the record is stored under (an id
    /// not in lower case); most ids are, and a read takes them from the key.
    /// </summary>
    private const byte IdInlineFlag = 4;

    /// <summary>Layout flag: the collection's name is in the record because its casing differs from the name its number has (<see cref="CollectionNames"/>).</summary>
    private const byte CollectionInlineFlag = 8;

    /// <summary>
    /// Layout flag: a compaction compressed the body with the collection's dictionary at its own level
    /// (<see cref="Compression.DocumentCompressionOptions.CompactionLevel"/>), or tried and found it would come out no
    /// smaller, so later compactions leave it as it is while the dictionary stays current. Reads ignore it.
    /// </summary>
    private const byte CompactedFlag = 16;

    /// <summary>
    /// Layout flag: the last-modified ticks take 8 bytes because they fall outside the 7 bytes' reach from
    /// <see cref="TicksEpoch"/> (2000 to 2228); every date the store itself writes takes 7.
    /// </summary>
    private const byte WideTicksFlag = 32;

    /// <summary>
    /// Layout flag: the record holds no last-modified ticks; it shares its batch's, kept once under the batch's first
    /// etag (<see cref="WriteTimes"/>). Since documents format 7.
    /// </summary>
    private const byte SharedTicksFlag = 128;

    private const long TicksEpoch = 630_822_816_000_000_000;

    private const long NarrowTicksLimit = 1L << 56;

    /// <summary>
    /// The most JSON a byte of Zstd frame can stand for: a 4-byte block (a 3-byte header and one byte repeated) holds at
    /// most 128 KB. A record claiming more is damaged; read as it says, it would have a read allocate up to 2 GB first.
    /// </summary>
    private const ulong MaxFrameExpansion = (128 << 10) / 4;

    /// <summary>More than the store's metadata a read appends to a frame ever takes (ids are at most 512 bytes).</summary>
    private const ulong MaxStoreMetadataBytes = 64 << 10;

    private readonly ReadOnlySpan<byte> _id;
    private readonly ReadOnlySpan<byte> _collection;
    private readonly ReadOnlySpan<byte> _stored;
    private readonly ReadOnlySpan<byte> _json;
    private readonly IWriteTimeSource? _times;
    private readonly long _etag;
    private readonly long _ticks;
    private readonly uint _collectionNumber;
    private readonly int _dictionaryVersion;
    private readonly int _rawLength;
    private readonly byte _flags;

    /// <summary>
    /// A view of the record stored under <paramref name="key"/> whose <see cref="Json"/> is the stored body as it is
    /// (plain, or compressed for callers that only read the header). Documents format 6 lays a record out as: a flags
    /// byte (the body's form, <see cref="IdInlineFlag"/>, <see cref="CollectionInlineFlag"/>, <see cref="CompactedFlag"/>,
    /// <see cref="WideTicksFlag"/>, and since format 7 <see cref="BareFrameFlag"/> and <see cref="SharedTicksFlag"/>), the
    /// etag as a varint, the last-modified ticks (7 bytes after <see cref="TicksEpoch"/>, 8 as they are, or none when the
    /// record shares its batch's, which <paramref name="times"/> finds), the collection's number as a varint, the
    /// collection's name and the id each as a varint length and bytes when their flags say so, for a compressed body the
    /// dictionary version and the whole JSON's length as varints, then the body. Formats 1-5 spent 35 bytes of a typical
    /// record on what takes 15 here, or 8 in a batch that shares its time.
    /// </summary>
    internal Document(ReadOnlySpan<byte> key, ReadOnlySpan<byte> record, CollectionNames names, IWriteTimeSource? times = null)
    {
        if (record.IsEmpty)
            throw new CorruptionException("A document record is empty.");
        var flags = record[0];
        if ((flags & BareFrameFlag) != 0 && (flags & BodyFormMask) != CompressedPrefixMagiclessFlag)
            throw new CorruptionException($"A document record says its frame is bare, but its body is not in the form bare frames take ({flags & BodyFormMask}).");
        var offset = 1;
        var wide = (flags & WideTicksFlag) != 0;
        var shared = (flags & SharedTicksFlag) != 0;
        if (!Varint.TryRead(record, ref offset, out var etag) || etag > long.MaxValue || offset + (shared ? 0 : wide ? 8 : 7) > record.Length)
            throw Truncated();
        long ticks;
        if (shared)
        {
            if (wide)
                throw new CorruptionException("A document record says both that it shares its batch's time and that it holds a wide one.");
            ticks = -1;
        }
        else if (wide)
        {
            ticks = BinaryPrimitives.ReadInt64LittleEndian(record[offset..]);
            if ((ulong)ticks > (ulong)DateTime.MaxValue.Ticks)
                throw new CorruptionException($"A document record holds a last-modified time outside what a date can be ({ticks} ticks).");
            offset += 8;
        }
        else
        {
            ticks = TicksEpoch + (long)(BinaryPrimitives.ReadUInt32LittleEndian(record[offset..]) | (ulong)BinaryPrimitives.ReadUInt16LittleEndian(record[(offset + 4)..]) << 32 | (ulong)record[offset + 6] << 48);
            offset += 7;
        }
        if (!Varint.TryRead(record, ref offset, out var number) || number > uint.MaxValue)
            throw Truncated();
        _collection = (flags & CollectionInlineFlag) != 0 ? Inline(record, ref offset) : names.NameOf(number);
        if ((flags & IdInlineFlag) != 0)
        {
            _id = Inline(record, ref offset);
        }
        else
        {
            if (key.IsEmpty)
                throw new CorruptionException("A document record that takes its id from its key was read without the key.");
            _id = key;
        }
        ulong dictionaryVersion = 0, rawLength;
        if ((flags & BodyFlagsMask) != 0)
        {
            if (!Varint.TryRead(record, ref offset, out dictionaryVersion) || !Varint.TryRead(record, ref offset, out rawLength))
                throw Truncated();
            if (dictionaryVersion > ushort.MaxValue || rawLength > int.MaxValue)
                throw new CorruptionException($"A document record names dictionary {dictionaryVersion} and a JSON length of {rawLength}, beyond what any record holds.");
            if (rawLength > (ulong)(record.Length - offset) * MaxFrameExpansion + MaxStoreMetadataBytes)
                throw new CorruptionException($"A document record claims {rawLength} bytes of JSON from a frame of {record.Length - offset} bytes, more than any frame of that size holds.");
        }
        else
        {
            rawLength = (ulong)(record.Length - offset);
        }
        _flags = flags;
        _etag = (long)etag;
        _ticks = ticks;
        _times = times;
        _collectionNumber = (uint)number;
        _dictionaryVersion = (int)dictionaryVersion;
        _rawLength = (int)rawLength;
        _stored = record[offset..];
        _json = _stored;
    }

    /// <summary>A view of a record whose body was decompressed to <paramref name="json"/>.</summary>
    internal Document(Document stored, ReadOnlySpan<byte> json)
    {
        this = stored;
        _json = json;
    }

    /// <summary>The etag of the write that produced this version.</summary>
    public long Etag => _etag;

    /// <summary>When this version was written (UTC).</summary>
    public DateTime LastModified => new(_ticks >= 0 ? _ticks : SharedTicks(), DateTimeKind.Utc);

    /// <summary>Whether the record shares its batch's time instead of holding it (<see cref="SharedTicksFlag"/>).</summary>
    internal bool SharesTime => _ticks < 0;

    /// <summary>The time a copy of this record holds: none when it shares its batch's (<see cref="HeaderLength"/>).</summary>
    internal DateTime? HeldLastModified => SharesTime ? null : LastModified;

    /// <summary>The id with the casing it was stored with, as UTF-8.</summary>
    public ReadOnlySpan<byte> Id => _id;

    /// <summary>The collection's name as UTF-8.</summary>
    public ReadOnlySpan<byte> Collection => _collection;

    /// <summary>The whole document as stored JSON (UTF-8).</summary>
    public ReadOnlySpan<byte> Json => _json;

    /// <summary>How the body is stored: 0 as it is, otherwise compressed in one of the forms the flags above name.</summary>
    internal byte BodyFlags => (byte)(_flags & BodyFlagsMask);

    /// <summary>Whether the body is compressed, any way.</summary>
    internal bool IsCompressed => BodyFlags != 0;

    /// <summary>Whether the compressed frame holds the JSON only up to the store's metadata, which reads append.</summary>
    internal bool HoldsPrefix => (_flags & BodyFormMask) is CompressedPrefixFlag or CompressedPrefixMagiclessFlag;

    /// <summary>Whether the compressed frame was written without Zstd's magic number.</summary>
    internal bool IsMagicless => (_flags & BodyFormMask) == CompressedPrefixMagiclessFlag;

    /// <summary>Whether the compressed frame is stored bare (<see cref="BareFrameFlag"/>).</summary>
    internal bool IsBare => (_flags & BareFrameFlag) != 0;

    /// <summary>Whether a compaction compressed the body at its level, or found that level gave nothing (<see cref="CompactedFlag"/>).</summary>
    internal bool IsCompacted => (_flags & CompactedFlag) != 0;

    /// <summary>The dictionary version a compressed body was made with (0: none).</summary>
    internal int DictionaryVersion => _dictionaryVersion;

    /// <summary>The number of the collection (<see cref="CollectionNumbers"/>).</summary>
    internal uint CollectionNumber => _collectionNumber;

    /// <summary>Whether the record holds the collection's name because its casing differs from the number's.</summary>
    internal bool HoldsCollectionName => (_flags & CollectionInlineFlag) != 0;

    /// <summary>The length of the whole JSON, read without decompressing anything.</summary>
    internal int RawLength => _rawLength;

    /// <summary>The body as stored: the JSON itself, or the compressed frame.</summary>
    internal ReadOnlySpan<byte> StoredBody => _stored;

    /// <summary>The id as a string.</summary>
    public string IdString => Encoding.UTF8.GetString(Id);

    /// <summary>The collection as a string.</summary>
    public string CollectionString => Encoding.UTF8.GetString(Collection);

    private long SharedTicks() =>
        (_times ?? throw new InvalidOperationException("A document record that shares its batch's time was read without the store's times.")).TicksAt(_etag);

    /// <summary>
    /// The bytes <see cref="WriteHeader"/> lays out before the body. <paramref name="numberedName"/>: the name collection
    /// <paramref name="collectionNumber"/> has in <see cref="CollectionNames"/>; the record holds
    /// <paramref name="collection"/> only when it differs. The id is held only when it differs from the key.
    /// <paramref name="lastModified"/>: null for a record that shares its batch's time (<see cref="WriteTimes"/>).
    /// </summary>
    internal static int HeaderLength(long etag, DateTime? lastModified, ReadOnlySpan<byte> key, ReadOnlySpan<byte> id, uint collectionNumber, ReadOnlySpan<byte> collection, ReadOnlySpan<byte> numberedName, byte bodyFlags = 0, int dictionaryVersion = 0, int rawLength = 0)
    {
        var length = 1 + Varint.Length((ulong)etag) + TicksLength(lastModified) + Varint.Length(collectionNumber);
        if (!collection.SequenceEqual(numberedName))
            length += Varint.Length((ulong)collection.Length) + collection.Length;
        if (!id.SequenceEqual(key))
            length += Varint.Length((ulong)id.Length) + id.Length;
        if (bodyFlags != 0)
            length += Varint.Length((ulong)dictionaryVersion) + Varint.Length((ulong)rawLength);
        return length;
    }

    /// <summary>
    /// Lays out a record's header (the constructor above describes it) for these values and returns its length, where
    /// the body goes. <paramref name="rawLength"/>: the whole JSON's length, for a compressed body.
    /// <paramref name="compacted"/>: a compaction wrote the body (<see cref="CompactedFlag"/>).
    /// </summary>
    internal static int WriteHeader(Span<byte> record, long etag, DateTime? lastModified, ReadOnlySpan<byte> key, ReadOnlySpan<byte> id, uint collectionNumber, ReadOnlySpan<byte> collection, ReadOnlySpan<byte> numberedName, byte bodyFlags = 0, int dictionaryVersion = 0, int rawLength = 0, bool compacted = false)
    {
        var collectionInline = !collection.SequenceEqual(numberedName);
        var idInline = !id.SequenceEqual(key);
        var ticksLength = TicksLength(lastModified);
        var wide = ticksLength == 8;
        record[0] = (byte)((bodyFlags & BodyFlagsMask) | (idInline ? IdInlineFlag : 0) | (collectionInline ? CollectionInlineFlag : 0) | (compacted ? CompactedFlag : 0) | (wide ? WideTicksFlag : 0) | (ticksLength == 0 ? SharedTicksFlag : 0));
        var offset = Varint.Write(record, 1, (ulong)etag);
        if (wide)
        {
            BinaryPrimitives.WriteInt64LittleEndian(record[offset..], lastModified!.Value.Ticks);
            offset += 8;
        }
        else if (ticksLength == 7)
        {
            var narrow = (ulong)(lastModified!.Value.Ticks - TicksEpoch);
            BinaryPrimitives.WriteUInt32LittleEndian(record[offset..], (uint)narrow);
            BinaryPrimitives.WriteUInt16LittleEndian(record[(offset + 4)..], (ushort)(narrow >> 32));
            record[offset + 6] = (byte)(narrow >> 48);
            offset += 7;
        }
        offset = Varint.Write(record, offset, collectionNumber);
        if (collectionInline)
            offset = WriteInline(record, offset, collection);
        if (idInline)
            offset = WriteInline(record, offset, id);
        if (bodyFlags != 0)
        {
            offset = Varint.Write(record, offset, (ulong)dictionaryVersion);
            offset = Varint.Write(record, offset, (ulong)rawLength);
        }
        return offset;
    }

    private static int TicksLength(DateTime? lastModified) =>
        lastModified is not { } date ? 0 : date.Ticks - TicksEpoch is >= 0 and < NarrowTicksLimit ? 7 : 8;

    private static int WriteInline(Span<byte> record, int offset, ReadOnlySpan<byte> bytes)
    {
        offset = Varint.Write(record, offset, (ulong)bytes.Length);
        bytes.CopyTo(record[offset..]);
        return offset + bytes.Length;
    }

    private static ReadOnlySpan<byte> Inline(ReadOnlySpan<byte> record, scoped ref int offset)
    {
        if (!Varint.TryRead(record, ref offset, out var length) || length > (ulong)(record.Length - offset))
            throw Truncated();
        var bytes = record.Slice(offset, (int)length);
        offset += (int)length;
        return bytes;
    }

    private static CorruptionException Truncated() => new("A document record ends inside its header.");
}
