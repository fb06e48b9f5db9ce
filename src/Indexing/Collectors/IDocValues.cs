using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// A field's doc values on one searcher's snapshot (<see cref="Engines.IEngineSearcher.OpenDocValues"/>): what
/// collectors read instead of the documents. Read a batch at a time, so a collector costs the engine one
/// call per batch rather than one per entry.
/// </summary>
public interface IDocValues
{
    /// <summary>What <see cref="TryReadNumbers"/> answers for an entry whose one value is the number it read.</summary>
    const long OneNumber = 0;

    /// <summary>What <see cref="TryReadOrdinals"/> and <see cref="TryReadNumbers"/> answer for an entry without a value in the field.</summary>
    const long NoValue = -1;

    /// <summary>What <see cref="TryReadOrdinals"/> and <see cref="TryReadNumbers"/> answer for an entry whose values must be read with <see cref="Read"/>.</summary>
    const long ReadValues = -2;

    /// <summary>
    /// Replaces what <paramref name="values"/> holds with the values of each of <paramref name="entryIds"/>,
    /// in that order (entry <c>i</c> of the block is <paramref name="entryIds"/>[i]).
    /// </summary>
    void Read(ReadOnlySpan<long> entryIds, DocValuesBlock values);

    /// <summary>
    /// <paramref name="value"/> in the form <see cref="DocValue.Bytes"/> has for this field's values (a number
    /// in the field's numeric kind, text normalized as the field normalizes it), so a bound can be compared
    /// with values byte by byte; null when the value cannot be one of the field's values.
    /// </summary>
    byte[]? Encode(FieldValue value);

    /// <summary>
    /// A text value (its <see cref="DocValue.Bytes"/>) as the data spells it most often, where the field folds case
    /// (an entry with <c>DFW</c> and one with <c>dfw</c> hold one value); null when the value is spelled as held, or
    /// the field keeps no spellings. Answers for the index as a whole, not for the matches of a query.
    /// </summary>
    string? Spelling(ReadOnlySpan<byte> value);

    /// <summary><see cref="Spelling(ReadOnlySpan{byte})"/> of a value read by its ordinal, which doc values may find by its number.</summary>
    string? Spelling(OrdinalTerm term) => Spelling(term.Bytes);

    /// <summary>
    /// Where the field numbers its values (an exact field's term ids), reads each of <paramref name="entryIds"/> as
    /// the number of its one value, so a collector counts a batch by numbers and reads each value's bytes once
    /// (<see cref="ReadOrdinal"/>), not once per entry: <paramref name="ordinals"/>[i] is that number (0 or more),
    /// <see cref="NoValue"/>, or <see cref="ReadValues"/> for an entry whose values are not one numbered value
    /// (several, or a null). Two numbers may stand for the same value (its spellings); a number stands for one value
    /// for as long as the searcher is open. False, reading nothing, when the field has no numbers: use
    /// <see cref="Read"/>.
    /// </summary>
    bool TryReadOrdinals(ReadOnlySpan<long> entryIds, Span<long> ordinals) => false;

    /// <summary>
    /// Where the field numbers its values and every entry has at most one (no null), counts <paramref name="entryIds"/>
    /// (increasing) by those numbers as <see cref="TryReadOrdinals"/> reads them, without handing them out: one more in
    /// <paramref name="counts"/>[ordinal] per entry (the array grown as needed, up to <paramref name="maxOrdinals"/>
    /// long), one more in <paramref name="missing"/> per entry without a value. May stop early (an ordinal that would
    /// reach <paramref name="maxOrdinals"/>); returns how many of the first entries it counted, 0 where the field
    /// cannot count so: count the rest another way.
    /// </summary>
    int CountOrdinals(ReadOnlySpan<long> entryIds, ref long[] counts, int maxOrdinals, ref long missing) => 0;

    /// <summary>
    /// Where a numeric field keeps each entry's one number apart and no entry has several or a null, counts
    /// <paramref name="entryIds"/> (increasing) into ranges without handing the numbers out: one more in
    /// <paramref name="counts"/>[r] per entry whose number n, read as <see cref="TryReadNumbers"/> reads it, has
    /// <c>n - lowest[r] &lt;= widths[r]</c> (unsigned); an entry without a number counts nowhere. May stop early;
    /// returns how many of the first entries it counted, 0 where the field cannot count so: count the rest another way.
    /// </summary>
    int CountNumbersInRanges(ReadOnlySpan<long> entryIds, ReadOnlySpan<ulong> lowest, ReadOnlySpan<ulong> widths, Span<long> counts) => 0;

    /// <summary>
    /// Where the doc values number the values their ordinals stand for (<see cref="OrdinalTerm.Number"/>), each number's
    /// place in value order, indexed by number; numbers past its end have none. Null where values have no numbers.
    /// </summary>
    int[]? ValueRanks() => null;

    /// <summary>The value <paramref name="ordinal"/> (from <see cref="TryReadOrdinals"/>) stands for, as <see cref="Read"/> gives it.</summary>
    OrdinalTerm ReadOrdinal(long ordinal) =>
        throw new NotSupportedException("These doc values have no ordinals.");

    /// <summary>
    /// Where a numeric field keeps each entry's one number apart from its other doc values (a column), reads each of
    /// <paramref name="entryIds"/>'s number as its <see cref="DocValue.Bytes"/> read as a big-endian integer (which
    /// orders as the numbers do) into <paramref name="numbers"/>[i], with <paramref name="states"/>[i]
    /// <see cref="OneNumber"/>; or <see cref="NoValue"/>, or <see cref="ReadValues"/> for an entry whose values are not
    /// one number (several, or a null), <paramref name="numbers"/>[i] then left as it was. False, reading nothing, when
    /// the field keeps no such numbers: use <see cref="Read"/>.
    /// </summary>
    bool TryReadNumbers(ReadOnlySpan<long> entryIds, Span<ulong> numbers, Span<long> states) => false;

    /// <summary>
    /// Where the field can tell without reading its entries, counts every entry of the snapshot under its value, as
    /// a term facet over all entries would: hands <paramref name="add"/> each ordinal (as <see cref="TryReadOrdinals"/>
    /// numbers values) with how many entries have its value, and gives in <paramref name="counted"/> how many entries
    /// have a value. Only a field whose every entry has at most one value and no null can answer so (an entry then
    /// counts once, under its one value); false, with nothing handed on, otherwise: walk the entries.
    /// </summary>
    bool TryCountEveryOrdinal(Action<long, long> add, out long counted)
    {
        counted = 0;
        return false;
    }

    /// <summary>
    /// Where the field can tell without reading its entries, counts every entry of the snapshot in each range whose
    /// inclusive bounds <paramref name="lowest"/>[r] and <paramref name="highest"/>[r] are numbers as
    /// <see cref="TryReadNumbers"/> reads them (a range with its lowest above its highest holds nothing), into
    /// <paramref name="counts"/>[r]. Only a numeric field whose every entry has at most one value and no null can
    /// answer so (an entry then counts once per range its one number falls in); false, with nothing counted, otherwise.
    /// </summary>
    bool TryCountEveryNumber(ReadOnlySpan<ulong> lowest, ReadOnlySpan<ulong> highest, Span<long> counts) => false;
}
