using System.Buffers.Binary;
using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// Deletes that leave full-text postings as they are. Taking a deleted entry out of a text field's postings means
/// reading the terms its record lists and rewriting a chunk of each (a dozen or more per entry); instead its id goes to
/// the dead entries (a tree keyed by the id), the fields whose postings still hold it to the dead fields, and the
/// readers of those postings skip it (<see cref="DeadSet"/>). Once the dead entries reach <see cref="SweepThreshold"/>,
/// a batch sweeps: every term of every dead field has its postings walked once without them
/// (<see cref="PostingStore.RemoveEvery"/>), and the set starts again empty. Entry ids are never reused, so an id
/// stays dead until the sweep.
/// </summary>
internal static class DeadEntries
{
    /// <summary>The tree of dead entry ids (8 bytes big-endian, no value).</summary>
    public const string IdsTree = "dead-entries";

    /// <summary>The tree of the names of fields whose postings hold dead ids (UTF-8, no value).</summary>
    public const string FieldsTree = "dead-fields";

    /// <summary>The meta key of the set's version, changed by every batch that changes the set, so searchers share one read of it.</summary>
    public static readonly byte[] VersionKey = "dead-version"u8.ToArray();

    /// <summary>The fewest dead entries a sweep waits for, so a small index does not sweep at every delete.</summary>
    public const long MinimumSweep = 4096;

    /// <summary>
    /// How many dead entries make a batch sweep: an eighth of the live entries (at least <see cref="MinimumSweep"/>),
    /// so a sweep, which reads every posting of the dead fields, comes once per that many deletes.
    /// </summary>
    public static long SweepThreshold(long liveEntries) => Math.Max(MinimumSweep, liveEntries / 8);

    /// <summary>Adds <paramref name="ids"/> and <paramref name="fields"/> to the set; returns how many dead entries it holds.</summary>
    public static long Add(WriteTransaction transaction, Tree meta, List<long> ids, HashSet<string> fields)
    {
        var idsTree = transaction.CreateTree(IdsTree);
        Span<byte> key = stackalloc byte[8];
        foreach (var id in ids)
        {
            BinaryPrimitives.WriteInt64BigEndian(key, id);
            idsTree.Put(key, []);
        }
        var fieldsTree = transaction.CreateTree(FieldsTree);
        foreach (var field in fields)
            fieldsTree.Put(Encoding.UTF8.GetBytes(field), []);
        BumpVersion(meta);
        return idsTree.Count;
    }

    /// <summary>How many dead entries the index holds.</summary>
    public static long Count(WriteTransaction transaction) => transaction.OpenTree(IdsTree)?.Count ?? 0;

    /// <summary>Empties the set (after a sweep).</summary>
    public static void Clear(WriteTransaction transaction, Tree meta)
    {
        transaction.DeleteTree(IdsTree);
        transaction.DeleteTree(FieldsTree);
        BumpVersion(meta);
    }

    /// <summary>The set as of <paramref name="transaction"/>, or <paramref name="cached"/> when that is the same version.</summary>
    public static DeadSet Read(ReadTransaction transaction, Tree meta, DeadSet cached)
    {
        var version = SearchIndex.ReadInt64(meta, VersionKey);
        if (version == cached.Version)
            return cached;
        return new DeadSet(version, ReadIds(transaction.OpenTree(IdsTree)), ReadFields(transaction.OpenTree(FieldsTree)));
    }

    /// <summary>The dead ids in <paramref name="tree"/>, ascending.</summary>
    public static long[] ReadIds(Tree? tree)
    {
        if (tree is null || tree.Count == 0)
            return [];
        var ids = new long[tree.Count];
        var count = 0;
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            if (cursor.Key.Length != 8 || count == ids.Length)
                throw new Folio.Storage.CorruptionException("The index's dead entries hold a key that is not an entry id.");
            ids[count++] = BinaryPrimitives.ReadInt64BigEndian(cursor.Key);
        }
        return count == ids.Length ? ids : throw new Folio.Storage.CorruptionException("The index's dead entries hold fewer ids than they count.");
    }

    /// <summary>The names of the fields in <paramref name="tree"/>.</summary>
    public static HashSet<string> ReadFields(Tree? tree)
    {
        var fields = new HashSet<string>(StringComparer.Ordinal);
        if (tree is null)
            return fields;
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            fields.Add(Encoding.UTF8.GetString(cursor.Key));
        return fields;
    }

    private static void BumpVersion(Tree meta) =>
        BinaryPrimitives.WriteInt64LittleEndian(meta.Reserve(VersionKey, 8), SearchIndex.ReadInt64(meta, VersionKey) + 1);
}
