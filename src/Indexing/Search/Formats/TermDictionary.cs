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
/// batch, which asks for the same terms over and over.
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

    /// <summary>Keeps the next id with the batch.</summary>
    public void Flush() => BinaryPrimitives.WriteInt64LittleEndian(_meta.Reserve(_nextIdKey, 8), _nextId);

    /// <summary>A searcher's lookup: the id of <paramref name="term"/> in the dictionary tree <paramref name="ids"/>, if it has one.</summary>
    public static bool TryGetId(Tree? ids, ReadOnlySpan<byte> term, out long id)
    {
        id = -1;
        if (ids is null || !ids.TryGet(TermEncoding.TermKey(term), out var stored))
            return false;
        var position = 0;
        id = (long)Varint.Read(stored, ref position);
        return true;
    }
}
