using System.Buffers.Binary;
using System.Collections.Concurrent;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The shapes entry records name by id, kept in the index's shapes tree (id → <see cref="EntryShape.Bytes"/>)
/// and cached in memory once committed. A batch hands out new ids inside its transaction and publishes them
/// here only after it commits, so the cache never holds a shape of a batch that rolled back; a searcher that
/// meets an id the cache does not have yet (its batch committed a moment before publishing) reads it from
/// its own snapshot.
/// </summary>
internal sealed class EntryShapes
{
    /// <summary>
    /// The most shapes an index names by id. Documents with many optional fields could otherwise make a
    /// shape per combination; past the limit, records carry their shape themselves (<see cref="InlineId"/>).
    /// </summary>
    public const int MaxShapes = 4096;

    /// <summary>The id a record gives when its shape follows in the record instead.</summary>
    public const int InlineId = 0;

    /// <summary>The size of a shapes-tree key: the id, big-endian, so ids list in order.</summary>
    public const int KeySize = 4;

    private readonly ConcurrentDictionary<int, EntryShape> _byId = new();
    private readonly ConcurrentDictionary<byte[], int> _idByBytes = new(ByteArrayComparer.Instance);

    /// <summary>Caches every shape in <paramref name="tree"/> (when an index opens, so batches reuse them).</summary>
    public void Load(Tree tree)
    {
        var cursor = tree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var position = 0;
            Add(IdOf(cursor.Key), EntryShape.Read(cursor.Value, ref position));
        }
    }

    /// <summary>The shape with committed id <paramref name="id"/>, from the cache or else from <paramref name="tree"/> (the caller's snapshot).</summary>
    public EntryShape Get(int id, Tree tree)
    {
        if (_byId.TryGetValue(id, out var shape))
            return shape;
        Span<byte> key = stackalloc byte[KeySize];
        if (!tree.TryGet(Key(id, key), out var bytes))
            throw new Folio.Storage.CorruptionException($"An index entry names shape {id}, which the index does not have.");
        var position = 0;
        shape = EntryShape.Read(bytes, ref position);
        Add(id, shape);
        return shape;
    }

    /// <summary>
    /// Reads the shape a record names (its id, then with <see cref="InlineId"/> the shape's encoding), from
    /// <paramref name="position"/> just after the record's key, moving past it. <paramref name="uncommitted"/>
    /// holds the shapes of the reading batch, which are not cached yet.
    /// </summary>
    public EntryShape ReadRecordShape(ReadOnlySpan<byte> record, ref int position, Tree tree, Dictionary<int, EntryShape>? uncommitted = null)
    {
        var id = (int)ByteCoding.ReadVarint(record, ref position);
        if (id == InlineId)
            return EntryShape.Read(record, ref position);
        return uncommitted is not null && uncommitted.TryGetValue(id, out var shape) ? shape : Get(id, tree);
    }

    /// <summary>The id of a committed shape with encoding <paramref name="bytes"/>, if there is one.</summary>
    public bool TryGetId(ReadOnlySpan<byte> bytes, out int id) =>
        _idByBytes.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(bytes, out id);

    /// <summary>Caches the shapes a batch added, once it has committed.</summary>
    public void Publish(Dictionary<int, EntryShape> added)
    {
        foreach (var (id, shape) in added)
            Add(id, shape);
    }

    /// <summary>The shapes-tree key of <paramref name="id"/>.</summary>
    public static ReadOnlySpan<byte> Key(int id, Span<byte> key)
    {
        BinaryPrimitives.WriteInt32BigEndian(key, id);
        return key[..KeySize];
    }

    private static int IdOf(ReadOnlySpan<byte> key) =>
        key.Length == KeySize ? BinaryPrimitives.ReadInt32BigEndian(key) : throw new Folio.Storage.CorruptionException($"A shapes-tree key has {key.Length} bytes.");

    private void Add(int id, EntryShape shape)
    {
        _byId.TryAdd(id, shape);
        _idByBytes.TryAdd(shape.Bytes, id);
    }
}
