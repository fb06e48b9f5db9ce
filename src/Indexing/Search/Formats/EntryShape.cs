namespace Folio.Indexing.Search;

/// <summary>
/// The fields an entry record holds, in order, each as its ordinal and flags (<see cref="EntryRecord"/>).
/// Entries made from one kind of document share their shape, so a record names it by a small id
/// (<see cref="EntryShapes"/>) instead of spending two bytes per field on it; most fields of a typical
/// entry (single numbers, single exact values) have nothing else in the record.
/// </summary>
internal sealed class EntryShape
{
    private readonly int[] _ordinals;
    private readonly byte[] _flags;

    private EntryShape(byte[] bytes, int[] ordinals, byte[] flags)
    {
        Bytes = bytes;
        _ordinals = ordinals;
        _flags = flags;
    }

    /// <summary>The encoding: the field count, then per field its ordinal (a varint) and its flags byte.</summary>
    public byte[] Bytes { get; }

    /// <summary>How many fields the entry has.</summary>
    public int FieldCount => _ordinals.Length;

    /// <summary>The ordinal of the entry's <paramref name="field"/>-th field.</summary>
    public int Ordinal(int field) => _ordinals[field];

    /// <summary>The flags of the entry's <paramref name="field"/>-th field.</summary>
    public byte Flags(int field) => _flags[field];

    /// <summary>Appends one field to an encoding being built (after its count, which <see cref="Read"/> expects first).</summary>
    public static void WriteField(List<byte> encoding, int ordinal, byte flags)
    {
        ByteCoding.WriteVarint(encoding, (ulong)ordinal);
        encoding.Add(flags);
    }

    /// <summary>Reads an encoding that starts at <paramref name="position"/>, moving past it.</summary>
    public static EntryShape Read(ReadOnlySpan<byte> bytes, ref int position)
    {
        var start = position;
        var count = (int)ByteCoding.ReadVarint(bytes, ref position);
        if (count < 0 || count > (bytes.Length - position) / 2)
            throw new Folio.Storage.CorruptionException($"An entry shape names {count} fields in {bytes.Length - position} bytes.");
        var ordinals = new int[count];
        var flags = new byte[count];
        for (var i = 0; i < count; i++)
        {
            ordinals[i] = (int)ByteCoding.ReadVarint(bytes, ref position);
            flags[i] = bytes[position++];
        }
        return new EntryShape(bytes[start..position].ToArray(), ordinals, flags);
    }
}
