namespace Folio.Indexing.Search;

// Dead entries (DeadEntries): ids a full-text field's postings still hold for deleted entries, which every reader of those postings skips.
public sealed partial class IndexSearcher
{
    private DeadSet? _dead;

    /// <summary>The dead entries of this searcher's snapshot.</summary>
    internal DeadSet Dead => _dead ??= _index.DeadAt(_transaction, _meta);

    /// <summary>The dead ids <paramref name="field"/>'s postings may hold, a bit per id; null when they hold none.</summary>
    internal ulong[]? DeadIn(string field) => Dead.BitsIn(field);

    /// <summary>
    /// Whether a term of <paramref name="reader"/>'s field (its key and header, as the terms tree holds them) has an id of
    /// a live entry, given the <paramref name="dead"/> ids its postings may hold: a term only dead entries had is left out
    /// of term walks until the sweep takes it away.
    /// </summary>
    private bool HasLiveEntry(FieldReader reader, ulong[] dead, ReadOnlySpan<byte> key, ReadOnlySpan<byte> header) =>
        CountLiveEntries(reader, dead, key, header, upTo: 1) > 0;

    /// <summary>How many live entries a term of <paramref name="reader"/>'s field has, counting at most <paramref name="upTo"/>.</summary>
    private long CountLiveEntries(FieldReader reader, ulong[] dead, ReadOnlySpan<byte> key, ReadOnlySpan<byte> header, long upTo = long.MaxValue)
    {
        var postings = new Queries.Iterators.TermIterator(reader.Terms!, reader.Sealed, key.ToArray(), header, _scratch, dead);
        long live = 0;
        while (live < upTo && postings.MoveNext())
        {
            // A term of a million entries is counted one by one: the query's budget bounds it.
            if ((++live & CancellationStride) == 0)
                Guard.Check();
        }
        postings.Release();
        return live;
    }

    /// <summary>Clears the bits of the dead ids <paramref name="field"/>'s postings may hold; returns how many were set.</summary>
    private long ClearDead(string field, ulong[]? bits)
    {
        if (bits is null || DeadIn(field) is not { } dead)
            return 0;
        long cleared = 0;
        var words = Math.Min(bits.Length, dead.Length);
        for (var i = 0; i < words; i++)
        {
            var hit = bits[i] & dead[i];
            if (hit == 0)
                continue;
            bits[i] &= ~hit;
            cleared += System.Numerics.BitOperations.PopCount(hit);
        }
        return cleared;
    }
}
