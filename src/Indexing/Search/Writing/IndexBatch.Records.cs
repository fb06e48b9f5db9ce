using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace Folio.Indexing.Search;

// Entry records: a field's terms written into the record of an added entry, and read back out of a stored record when its entry is deleted.
public sealed partial class IndexBatch
{
    /// <summary>
    /// The id of the entry shape with <paramref name="encoding"/>, naming it first when the index has not
    /// seen it (<see cref="EntryShapes.InlineId"/> once the index has as many shapes as it names).
    /// </summary>
    private int ShapeIdOf(ReadOnlySpan<byte> encoding)
    {
        // A batch that began while the previous one was publishing its new shapes may miss one and name
        // it again under another id: records stay right, and the id limit is far above the shapes in use.
        if (_index.Shapes.TryGetId(encoding, out var id) || _newShapeIds.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(encoding, out id))
            return id;
        var count = _shapes.Count;
        if (count >= EntryShapes.MaxShapes)
            return EntryShapes.InlineId;
        id = (int)count + 1;
        var position = 0;
        var shape = EntryShape.Read(encoding, ref position);
        Span<byte> key = stackalloc byte[EntryShapes.KeySize];
        _shapes.Put(EntryShapes.Key(id, key), shape.Bytes);
        _newShapes.Add(id, shape);
        _newShapeIds.Add(shape.Bytes, id);
        return id;
    }

    /// <summary>Writes one field of an entry: its ordinal and flags to the entry's shape, its terms to the record (<see cref="EntryRecord"/>).</summary>
    private static void WriteField(List<byte> shape, List<byte> record, FieldWriter field, AnalyzedField analyzed)
    {
        if (analyzed.IsSingleNumber)
        {
            EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.InColumnFlag));
            return;
        }
        if ((analyzed.Flags & EntryRecord.PositionsFlag) != 0)
        {
            // Full text: its terms and positions are in the postings, which a delete leaves to the sweep.
            EntryShape.WriteField(shape, field.Ordinal, analyzed.Flags);
            return;
        }
        if (!field.UsesTermIds)
        {
            EntryShape.WriteField(shape, field.Ordinal, analyzed.Flags);
            ByteCoding.WriteVarint(record, (ulong)analyzed.Terms.Count);
            foreach (var term in analyzed.Terms.Keys)
                ByteCoding.WriteBytes(record, term);
            return;
        }
        if (analyzed.ValueTerm is not null)
        {
            EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.TermIdsFlag | EntryRecord.ValueIdFlag));
            return;
        }
        EntryShape.WriteField(shape, field.Ordinal, (byte)(analyzed.Flags | EntryRecord.TermIdsFlag));
        var dictionary = field.Dictionary;
        ByteCoding.WriteVarint(record, (ulong)analyzed.Terms.Count);
        foreach (var info in analyzed.Terms.Values)
            ByteCoding.WriteVarint(record, (ulong)dictionary.GetOrAdd(info.DictionaryKey));
    }

    /// <summary>
    /// Takes the terms of one field of an entry stored before this batch (read from its record) out of the postings; a
    /// full-text field's stay for the sweep (<see cref="DeadEntries"/>), and then this returns true.
    /// </summary>
    private bool RemoveTerms(ReadOnlySpan<byte> record, ref int position, byte flags, FieldWriter field, long id)
    {
        if ((flags & EntryRecord.InColumnFlag) != 0)
            return false;
        if ((flags & EntryRecord.ValueIdFlag) != 0)
        {
            if (field.IdColumn is null || !field.IdColumn.TryGet(id, out var valueId))
                throw new Folio.Storage.CorruptionException($"Index entry {id} has no value in the id column of '{field.Name}'.");
            field.Postings.Remove(TermOfKey(field, field.Dictionary.TermOf((long)valueId), -1), id);
            return false;
        }
        if ((flags & DeadEntryFlags) == DeadEntryFlags)
        {
            EntryRecord.SkipTerms(record, ref position, flags);
            _deadFields.Add(field.Name);
            return true;
        }
        var count = (int)ByteCoding.ReadVarint(record, ref position);
        if ((flags & EntryRecord.TermIdsFlag) == 0)
        {
            // Only numbers are recorded by their bytes, and numbers are points.
            for (var i = 0; i < count; i++)
            {
                var term = ByteCoding.ReadBytes(record, ref position);
                if (term.Length != 8)
                    throw new Folio.Storage.CorruptionException($"Index entry {id} records a number of field '{field.Name}' in {term.Length} bytes.");
                field.Points.Remove(BinaryPrimitives.ReadUInt64BigEndian(term), id);
            }
            return false;
        }
        // Distinct terms: a record lists each once.
        for (var i = 0; i < count; i++)
            field.Postings.Remove(TermOfKey(field, field.Dictionary.TermOf((long)ByteCoding.ReadVarint(record, ref position)), -1), id);
        return false;
    }

    /// <summary>
    /// Takes back the spellings an entry added in this batch counted: its field's records still name the variants
    /// (<see cref="SpellingVariant"/>), while its postings are taken back from the logs as a whole.
    /// </summary>
    private void RetractNewSpellings(ReadOnlySpan<byte> record, int position, byte flags, FieldWriter field, long id)
    {
        if ((flags & EntryRecord.TermIdsFlag) == 0 || (flags & (EntryRecord.PositionsFlag | EntryRecord.InColumnFlag)) != 0)
            return;
        if ((flags & EntryRecord.ValueIdFlag) != 0)
        {
            if (field.IdColumn is not null && field.IdColumn.TryGet(id, out var valueId))
                TermOfKey(field, field.Dictionary.TermOf((long)valueId), -1);
            return;
        }
        var count = (int)ByteCoding.ReadVarint(record, ref position);
        for (var i = 0; i < count; i++)
            TermOfKey(field, field.Dictionary.TermOf((long)ByteCoding.ReadVarint(record, ref position)), -1);
    }

    /// <summary>
    /// The term a dictionary key stands for: the key itself, or a spelling variant's term, whose count changes by
    /// <paramref name="delta"/> (the term as the batch shares it, so removing many entries allocates once per term).
    /// </summary>
    private byte[] TermOfKey(FieldWriter field, byte[] key, int delta)
    {
        if (!SpellingVariant.IsVariant(key))
            return key;
        field.CountSpelling(key, delta);
        var lookup = _terms.GetAlternateLookup<ReadOnlySpan<byte>>();
        var term = SpellingVariant.TermOf(key);
        if (!lookup.TryGetValue(term, out var shared))
        {
            shared = term.ToArray();
            _terms.Add(shared);
        }
        return shared;
    }
}
