namespace Folio.Storage.Documents;

/// <summary>
/// The layout of one entry of the collection etag index (<see cref="DocumentStore.CollectionDocsTree"/>): a block of up
/// to <see cref="MaxEntries"/> of a collection's documents in etag order, under the key of the collection's number and
/// the block's base etag (<see cref="CollectionNumbers.WriteKey"/>). The value is the entry count (one byte), then per
/// entry the etag as a varint difference (from the base for the first, from the previous entry after), the length of the
/// prefix its id key shares with the previous entry's (a varint), the length of the rest (a varint) and the rest.
/// Consecutive writes have consecutive etags and ids like <c>orders/1041</c>, <c>orders/1042</c>, so an entry takes about
/// four bytes where one tree entry a document took about thirty.
/// </summary>
internal static class EtagBlock
{
    /// <summary>Entries a block takes before the next document starts a new one.</summary>
    public const int MaxEntries = 64;

    /// <summary>Bytes a block grows to before the next document starts a new one (a single larger entry is a block alone).</summary>
    public const int MaxBytes = 1024;

    /// <summary>The most an entry takes: three varints of at most five bytes each and the whole id key.</summary>
    public const int MaxEntryBytes = 15 + DocumentIds.MaxKeyBytes;

    /// <summary>The entries a block holds.</summary>
    public static int Count(ReadOnlySpan<byte> block) =>
        block.IsEmpty ? throw new CorruptionException("An entry of the collection etag index is empty.") : block[0];

    /// <summary>
    /// Writes an entry at <paramref name="offset"/> of <paramref name="block"/>: <paramref name="idKey"/> after
    /// <paramref name="previousKey"/>, <paramref name="delta"/> etags after the previous entry (or the base); returns
    /// the offset after it.
    /// </summary>
    public static int WriteEntry(Span<byte> block, int offset, long delta, ReadOnlySpan<byte> previousKey, ReadOnlySpan<byte> idKey)
    {
        var shared = idKey.CommonPrefixLength(previousKey);
        offset = Varint.Write(block, offset, (ulong)delta);
        offset = Varint.Write(block, offset, (uint)shared);
        offset = Varint.Write(block, offset, (uint)(idKey.Length - shared));
        idKey[shared..].CopyTo(block[offset..]);
        return offset + idKey.Length - shared;
    }

    /// <summary>The bytes <see cref="WriteEntry"/> takes for these values.</summary>
    public static int EntryLength(long delta, ReadOnlySpan<byte> previousKey, ReadOnlySpan<byte> idKey)
    {
        var shared = idKey.CommonPrefixLength(previousKey);
        return Varint.Length((ulong)delta) + Varint.Length((uint)shared) + Varint.Length((uint)(idKey.Length - shared)) + idKey.Length - shared;
    }

    /// <summary>
    /// Reads the entry at <paramref name="offset"/>: adds its difference to <paramref name="etag"/> and rebuilds its id key
    /// in <paramref name="idKey"/> over the previous one (whose length <paramref name="idLength"/> holds, and then its own),
    /// growing it to the longest key when the key does not fit; returns the offset after it.
    /// </summary>
    public static int ReadEntry(ReadOnlySpan<byte> block, int offset, ref long etag, ref byte[] idKey, ref int idLength)
    {
        offset = ReadVarint(block, offset, out var delta);
        offset = ReadVarint(block, offset, out var shared);
        offset = ReadVarint(block, offset, out var rest);
        if (shared > (ulong)idLength || shared + rest > DocumentIds.MaxKeyBytes || rest > (ulong)(block.Length - offset) || delta > long.MaxValue - (ulong)etag)
            throw new CorruptionException("An entry of the collection etag index does not fit its block.");
        if (shared + rest > (ulong)idKey.Length)
            Array.Resize(ref idKey, DocumentIds.MaxKeyBytes);
        block.Slice(offset, (int)rest).CopyTo(idKey.AsSpan((int)shared));
        idLength = (int)(shared + rest);
        etag += (long)delta;
        return offset + (int)rest;
    }

    /// <summary>The etag of a block's last entry, from the block's base etag, without rebuilding any id key.</summary>
    public static long LastEtag(ReadOnlySpan<byte> block, long baseEtag)
    {
        var count = Count(block);
        var offset = 1;
        for (var i = 0; i < count; i++)
        {
            offset = ReadVarint(block, offset, out var delta);
            offset = ReadVarint(block, offset, out _);
            offset = ReadVarint(block, offset, out var rest);
            if (rest > (ulong)(block.Length - offset))
                throw new CorruptionException("An entry of the collection etag index does not fit its block.");
            offset += (int)rest;
            baseEtag += (long)delta;
        }
        return baseEtag;
    }

    private static int ReadVarint(ReadOnlySpan<byte> source, int offset, out ulong value) =>
        Varint.TryRead(source, ref offset, out value) ? offset : throw new CorruptionException("An entry of the collection etag index ends inside a number.");
}
