using System.Buffers.Binary;
using Folio.Storage.Trees;

namespace Folio.Storage.Documents;

/// <summary>
/// Each collection number's name with the casing its first document gave it, in memory for every read: a record keeps
/// its collection's number instead of the name (<see cref="Document"/>), and reads rebuild <c>@collection</c> byte for
/// byte from this table. Loaded when the store opens; a write transaction that numbers a collection sets its name here
/// before it commits, so no snapshot holds a record whose number the table lacks. A number that a transaction gave and
/// then rolled back is given again to the next new collection, which overwrites the name.
/// </summary>
internal sealed class CollectionNames
{
    private readonly Lock _lock = new();
    private byte[]?[] _names = [];

    /// <summary>The name of collection <paramref name="number"/>; a <see cref="CorruptionException"/> when the store never numbered it.</summary>
    public byte[] NameOf(ulong number)
    {
        var names = Volatile.Read(ref _names);
        return number < (ulong)names.Length && names[number] is { } name
            ? name
            : throw new CorruptionException($"A document record names collection number {number}, which the database never gave.");
    }

    /// <summary>Sets the name of collection <paramref name="number"/> (copy on write: readers never lock).</summary>
    public void Set(uint number, byte[] name)
    {
        lock (_lock)
        {
            var names = _names;
            if (number < names.Length && names[number] is { } known && known.AsSpan().SequenceEqual(name))
                return;
            var copy = new byte[]?[Math.Max(names.Length, (int)number + 1)];
            names.CopyTo(copy, 0);
            copy[number] = name;
            Volatile.Write(ref _names, copy);
        }
    }

    /// <summary>Replaces the table with the names of the numbers tree (<see cref="CollectionNumbers.Tree"/>) of format 6.</summary>
    public void Load(Tree numbers)
    {
        var names = new byte[]?[numbers.Count];
        var cursor = numbers.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            var value = cursor.Value;
            if (value.Length <= 4)
                throw new CorruptionException("A collection number is stored without its name.");
            var number = BinaryPrimitives.ReadUInt32LittleEndian(value);
            if (number >= names.Length)
                Array.Resize(ref names, (int)number + 1);
            names[number] = value[4..].ToArray();
        }
        lock (_lock)
            Volatile.Write(ref _names, names);
    }
}
