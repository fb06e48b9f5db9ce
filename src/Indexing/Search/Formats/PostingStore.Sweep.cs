using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

// The sweep: a term's postings walked once, chunk by chunk, dropping the ids of entries deleted since the last sweep.
internal sealed partial class PostingStore
{
    /// <summary>
    /// Takes every id of <paramref name="dead"/> (sorted) out of the term's postings, reading each of its chunks once:
    /// a delete that leaves a full-text field's postings as they were (<see cref="DeadEntries"/>) has them taken out
    /// here, many at a time. A chunk without dead ids is left as it is. Returns whether the term has postings afterwards.
    /// </summary>
    public bool RemoveEvery(ReadOnlySpan<byte> termKey, ReadOnlySpan<long> dead)
    {
        if (!_terms.TryGet(termKey, out var header))
            return false;
        if (!IsChunked(header))
        {
            var count = Decode(header);
            if (!HoldsAny(count, dead))
                return true;
            LoadPositions(termKey, -1, 0, count);
            var kept = KeepLive(count, dead);
            if (kept == 0)
            {
                _terms.Delete(termKey);
                DeletePositions(termKey);
                return false;
            }
            WriteInline(termKey, kept);
            return true;
        }
        var frequency = ChunkedFrequency(header);
        var cursor = _cursor ??= _terms.CreateCursor();
        var chunkKeys = new List<byte[]>();
        var more = cursor.Seek(TermEncoding.ChunkKey(termKey, 0));
        while (more && IsChunkOf(cursor.Key, termKey))
        {
            chunkKeys.Add(cursor.Key.ToArray());
            more = cursor.MoveNext();
        }
        var termKeyCopy = termKey.ToArray();
        foreach (var chunkKey in chunkKeys)
        {
            if (!_terms.TryGet(chunkKey, out var stored))
                throw new Folio.Storage.CorruptionException("A posting chunk went missing while its term was swept.");
            var seal = IsSealed(stored) ? ReadSeal(stored) : -1;
            var count = Decode(StoredChunk(stored));
            if (!HoldsAny(count, dead))
                continue;
            LoadPositions(chunkKey, seal, 0, count);
            var kept = KeepLive(count, dead);
            frequency -= count - kept;
            _terms.Delete(chunkKey);
            DeletePositions(chunkKey);
            if (kept == 0)
            {
                if (seal >= 0)
                    DeleteSealed(seal);
            }
            else if (seal < 0)
            {
                Write(termKeyCopy, kept);
            }
            else
            {
                // As a removal does: the sealed chunk keeps its sequence number and shrinks in place.
                Seal(termKeyCopy, kept, seal);
            }
        }
        return WriteChunkedTerm(termKeyCopy, frequency);
    }

    /// <summary>Whether any of the <paramref name="count"/> ids in the buffers is one of <paramref name="dead"/> (sorted).</summary>
    private bool HoldsAny(int count, ReadOnlySpan<long> dead)
    {
        if (count == 0 || dead.IsEmpty || dead[^1] < _ids[0] || dead[0] > _ids[count - 1])
            return false;
        var next = FirstAtOrAfter(dead, _ids[0]);
        for (var i = 0; i < count && next < dead.Length; i++)
        {
            while (next < dead.Length && dead[next] < _ids[i])
                next++;
            if (next < dead.Length && dead[next] == _ids[i])
                return true;
        }
        return false;
    }

    private static int FirstAtOrAfter(ReadOnlySpan<long> sorted, long value)
    {
        var index = sorted.BinarySearch(value);
        return index < 0 ? ~index : index;
    }

    /// <summary>Moves the ids in the buffers that <paramref name="dead"/> lacks to their front (some are there: <see cref="HoldsAny"/>); returns how many there are.</summary>
    private int KeepLive(int count, ReadOnlySpan<long> dead)
    {
        var next = FirstAtOrAfter(dead, _ids[0]);
        var kept = 0;
        int read = 0, write = 0;
        for (var i = 0; i < count; i++)
        {
            var id = _ids[i];
            while (next < dead.Length && dead[next] < id)
                next++;
            var isDead = next < dead.Length && dead[next] == id;
            KeepPositions(ref read, ref write, _frequencies[i], !isDead);
            if (isDead)
                continue;
            _ids[kept] = id;
            _frequencies[kept] = _frequencies[i];
            kept++;
        }
        return kept;
    }
}
