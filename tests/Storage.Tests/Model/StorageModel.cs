using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Model;

/// <summary>
/// What an environment's three trees should hold, kept in plain sorted collections. A null tree does
/// not exist. A model is never changed once committed (a write transaction works on a clone), so
/// snapshots can share it.
/// </summary>
internal sealed class StorageModel
{
    public const string DocsName = "docs";
    public const string IndexName = "index";
    public const string EtagsName = "etags";

    /// <summary>The regular tree: byte keys to byte values.</summary>
    public SortedDictionary<byte[], byte[]>? Docs { get; set; }

    /// <summary>The multi-value tree: each key's set of values.</summary>
    public SortedDictionary<byte[], SortedSet<byte[]>>? Index { get; set; }

    /// <summary>The fixed-size tree: Int64 keys to values of one size.</summary>
    public SortedDictionary<long, byte[]>? Etags { get; set; }

    public long IndexPairs
    {
        get
        {
            long pairs = 0;
            foreach (var (_, values) in Index ?? [])
                pairs += values.Count;
            return pairs;
        }
    }

    /// <summary>The longest value a multi-value key can take: key (zeros escaped), terminator and value share one tree key.</summary>
    public static int IndexValueRoom(ReadOnlySpan<byte> key) => StorageLimits.MaxKeySize - (key.Length + key.Count((byte)0) + 2);

    public StorageModel Clone()
    {
        SortedDictionary<byte[], SortedSet<byte[]>>? index = null;
        if (Index is not null)
        {
            index = new SortedDictionary<byte[], SortedSet<byte[]>>(ByteArrayComparer.Ordinal);
            foreach (var (key, values) in Index)
                index.Add(key, new SortedSet<byte[]>(values, ByteArrayComparer.Ordinal));
        }
        return new StorageModel
        {
            Docs = Docs is null ? null : new SortedDictionary<byte[], byte[]>(Docs, ByteArrayComparer.Ordinal),
            Index = index,
            Etags = Etags is null ? null : new SortedDictionary<long, byte[]>(Etags),
        };
    }
}
