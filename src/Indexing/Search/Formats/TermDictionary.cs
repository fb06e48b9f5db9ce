using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A text field's term ids, so an entry record names each term by a small number instead of its bytes
/// (the terms' bytes were most of every record). Ids are handed out in order of first use, so the
/// common terms get the shortest ones; they are never reused, and a term loses its id when it loses its
/// last posting, so churn through ever new terms does not grow the dictionary.
/// </summary>
/// <remarks>
/// Two trees: term key → id (a varint) and id (8 bytes, big-endian) → term. Lookups are cached for the
/// batch, which asks for the same terms over and over. A spelling variant's id is followed by how many entries
/// spell its term so (a varint, <see cref="SpellingVariant"/>), so its count costs no tree and no key of its own.
/// </remarks>
internal sealed class TermDictionary
{
    private readonly Tree _ids;
    private readonly Tree _terms;
    private readonly Tree _meta;
    private readonly byte[] _nextIdKey;
    private readonly Dictionary<byte[], long> _idOf = new(ByteArrayComparer.Instance);
    private readonly Dictionary<long, byte[]> _termOf = [];
    private long _nextId;

    public TermDictionary(Tree ids, Tree terms, Tree meta, byte[] nextIdKey)
    {
        _ids = ids;
        _terms = terms;
        _meta = meta;
        _nextIdKey = nextIdKey;
        _nextId = SearchIndex.ReadInt64(meta, nextIdKey);
    }

    /// <summary>The id of <paramref name="term"/>, given one now if it has none. The dictionary keeps <paramref name="term"/>: it must not change.</summary>
    public long GetOrAdd(byte[] term)
    {
        if (_idOf.TryGetValue(term, out var id))
            return id;
        var key = TermEncoding.TermKey(term);
        if (_ids.TryGet(key, out var stored))
        {
            var position = 0;
            id = (long)Varint.Read(stored, ref position);
        }
        else
        {
            id = _nextId++;
            Span<byte> value = stackalloc byte[10];
            _ids.Put(key, value[..Varint.Write(value, 0, (ulong)id)]);
            Span<byte> idKey = stackalloc byte[8];
            BinaryPrimitives.WriteInt64BigEndian(idKey, id);
            _terms.Put(idKey, term);
        }
        _idOf.Add(term, id);
        _termOf.TryAdd(id, term);
        return id;
    }

    /// <summary>The term with <paramref name="id"/>; a record naming an id the dictionary lacks is corrupt.</summary>
    public byte[] TermOf(long id)
    {
        if (_termOf.TryGetValue(id, out var term))
            return term;
        Span<byte> idKey = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(idKey, id);
        if (!_terms.TryGet(idKey, out var stored))
            throw new Folio.Storage.CorruptionException($"An index entry names term id {id}, which the term dictionary does not have.");
        term = stored.ToArray();
        _termOf.Add(id, term);
        _idOf.TryAdd(term, id);
        return term;
    }

    /// <summary>Takes a term without postings out of the dictionary.</summary>
    public void Remove(ReadOnlySpan<byte> term)
    {
        var key = TermEncoding.TermKey(term);
        if (!_ids.TryGet(key, out var stored))
            return;
        var position = 0;
        var id = (long)Varint.Read(stored, ref position);
        _ids.Delete(key);
        Span<byte> idKey = stackalloc byte[8];
        BinaryPrimitives.WriteInt64BigEndian(idKey, id);
        _terms.Delete(idKey);
        _termOf.Remove(id);
        _idOf.GetAlternateLookup<ReadOnlySpan<byte>>().Remove(term);
    }

    /// <summary>
    /// Changes by <paramref name="delta"/> how many entries spell a term as <paramref name="variant"/> (which has an id:
    /// the entries counted name it); a variant no entry spells any more loses its id, as a term without postings does.
    /// </summary>
    public void CountSpelling(byte[] variant, long delta)
    {
        var id = GetOrAdd(variant);
        var key = TermEncoding.TermKey(variant);
        var count = delta;
        if (_ids.TryGet(key, out var stored))
        {
            var position = 0;
            Varint.Read(stored, ref position);
            if (position < stored.Length)
                count += (long)Varint.Read(stored, ref position);
        }
        if (count < 0)
            throw new Folio.Storage.CorruptionException("A spelling variant's count went below zero.");
        if (count == 0)
        {
            Remove(variant);
            return;
        }
        if (delta == 0)
            return;
        Span<byte> value = stackalloc byte[20];
        var length = Varint.Write(value, 0, (ulong)id);
        length = Varint.Write(value, length, (ulong)count);
        _ids.Put(key, value[..length]);
    }

    /// <summary>
    /// A searcher's read of the spelling variants of <paramref name="term"/> in the dictionary tree <paramref name="ids"/>:
    /// each spelling (its bytes) with how many entries spell the term so, in byte order; empty when there are none.
    /// </summary>
    public static List<(byte[] Spelling, long Count)> Spellings(Tree ids, ReadOnlySpan<byte> term)
    {
        var spellings = new List<(byte[], long)>();
        Span<byte> prefix = stackalloc byte[TermEncoding.MaxTermBytes + 8];
        prefix = prefix[..SpellingVariant.WritePrefix(term, prefix)];
        Span<byte> escaped = stackalloc byte[TermEncoding.MaxTermKeyLength(prefix.Length)];
        // A term key is the escaped term and two zero bytes; every variant's key starts with the escaped prefix.
        escaped = escaped[..(TermEncoding.TermKey(prefix, escaped) - 2)];
        Span<byte> variant = stackalloc byte[TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes)];
        var cursor = ids.CreateCursor();
        for (var more = cursor.Seek(escaped); more && cursor.Key.StartsWith(escaped); more = cursor.MoveNext())
        {
            if (!TermEncoding.TryDecodeKey(cursor.Key, variant, out var length, out _))
                continue;
            var value = cursor.Value;
            var position = 0;
            Varint.Read(value, ref position);
            var count = position < value.Length ? (long)Varint.Read(value, ref position) : 0;
            if (count > 0)
                spellings.Add((variant[prefix.Length..length].ToArray(), count));
        }
        return spellings;
    }

    /// <summary>Keeps the next id with the batch.</summary>
    public void Flush() => BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(_nextIdKey, 8), _nextId);
}
