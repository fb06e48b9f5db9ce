using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The posting lists of one field, in one terms tree. A term's key holds its document frequency; its
/// postings are chunks of at most <see cref="ChunkSize"/> ids under the term key plus the chunk's first
/// id. New entries always get higher ids than any before, so a batch appends to a term's last chunk
/// (or opens new ones) instead of rewriting a long list, and a delete rewrites only the chunks it hits.
/// </summary>
internal sealed class PostingStore
{
    public const int ChunkSize = 4096;

    private readonly Tree _terms;
    private readonly bool _withFrequencies;
    private long[] _ids = new long[ChunkSize * 2];
    private int[] _frequencies = new int[ChunkSize * 2];
    private byte[] _encoded = new byte[PostingsEncoder.GetMaxEncodedLength(ChunkSize * 2, withFrequencies: true)];

    public PostingStore(Tree terms, bool withFrequencies)
    {
        _terms = terms;
        _withFrequencies = withFrequencies;
    }

    /// <summary>
    /// Applies one batch's changes to a term: <paramref name="removals"/> (sorted, possibly absent ids)
    /// come out, <paramref name="additions"/> (sorted, all newer than any id of the term) go in.
    /// </summary>
    public void Apply(ReadOnlySpan<byte> term, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<long> removals)
    {
        var termKey = TermEncoding.TermKey(term);
        var frequency = _terms.TryGet(termKey, out var stored) ? BinaryPrimitives.ReadInt64LittleEndian(stored) : 0;
        if (!removals.IsEmpty)
            frequency -= Remove(termKey, removals);
        if (!additions.IsEmpty)
        {
            Append(termKey, additions, frequencies);
            frequency += additions.Length;
        }
        if (frequency <= 0)
            _terms.Delete(termKey);
        else
            BinaryPrimitives.WriteInt64LittleEndian(_terms.Reserve(termKey, 8), frequency);
    }

    /// <summary>How many entries have the term.</summary>
    public static long DocumentFrequency(Tree terms, ReadOnlySpan<byte> termKey) =>
        terms.TryGet(termKey, out var stored) ? BinaryPrimitives.ReadInt64LittleEndian(stored) : 0;

    private int Remove(byte[] termKey, ReadOnlySpan<long> removals)
    {
        var removed = 0;
        var cursor = _terms.CreateCursor();
        var next = 0;
        while (next < removals.Length)
        {
            var target = removals[next];
            if (!cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(termKey, target)) || !IsChunkOf(cursor.Key, termKey))
            {
                next++;
                continue;
            }
            var chunkKey = cursor.Key.ToArray();
            var count = Decode(cursor.Value);
            var kept = 0;
            var lastId = _ids[count - 1];
            for (var i = 0; i < count; i++)
            {
                while (next < removals.Length && removals[next] < _ids[i])
                    next++;
                if (next < removals.Length && removals[next] == _ids[i])
                {
                    removed++;
                    next++;
                    continue;
                }
                _ids[kept] = _ids[i];
                _frequencies[kept] = _frequencies[i];
                kept++;
            }
            while (next < removals.Length && removals[next] <= lastId)
                next++;
            // A target past this chunk's last id is in no chunk (the next chunk starts after it).
            if (next < removals.Length && removals[next] == target)
                next++;
            if (kept == count)
                continue;
            _terms.Delete(chunkKey);
            if (kept > 0)
                Write(termKey, kept);
        }
        return removed;
    }

    private void Append(byte[] termKey, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies)
    {
        var count = 0;
        var cursor = _terms.CreateCursor();
        if (cursor.SeekLastAtOrBefore(TermEncoding.ChunkKey(termKey, long.MaxValue)) && IsChunkOf(cursor.Key, termKey))
        {
            var existing = Decode(cursor.Value);
            if (existing < ChunkSize)
            {
                if (_ids[existing - 1] >= additions[0])
                    throw new InvalidOperationException("Postings must be appended in increasing id order.");
                count = existing;
            }
        }
        var offset = 0;
        while (offset < additions.Length)
        {
            var take = Math.Min(ChunkSize - count, additions.Length - offset);
            additions.Slice(offset, take).CopyTo(_ids.AsSpan(count));
            if (_withFrequencies)
                frequencies.Slice(offset, take).CopyTo(_frequencies.AsSpan(count));
            count += take;
            offset += take;
            Write(termKey, count);
            count = 0;
        }
    }

    private int Decode(ReadOnlySpan<byte> chunk)
    {
        var count = PostingsDecoder.GetCount(chunk);
        EnsureCapacity(count);
        return PostingsDecoder.Decode(chunk, _ids, _frequencies);
    }

    private void Write(byte[] termKey, int count)
    {
        var ids = _ids.AsSpan(0, count);
        var length = PostingsEncoder.Encode(ids, _withFrequencies ? _frequencies.AsSpan(0, count) : default, _encoded);
        _terms.Put(TermEncoding.ChunkKey(termKey, ids[0]), _encoded.AsSpan(0, length));
    }

    private void EnsureCapacity(int count)
    {
        if (count <= _ids.Length)
            return;
        _ids = new long[count];
        _frequencies = new int[count];
        _encoded = new byte[PostingsEncoder.GetMaxEncodedLength(count, withFrequencies: true)];
    }

    internal static bool IsChunkOf(ReadOnlySpan<byte> key, ReadOnlySpan<byte> termKey) =>
        key.Length == termKey.Length + 8 && key.StartsWith(termKey);
}
