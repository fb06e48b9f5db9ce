using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// A field's doc values on one searcher's snapshot (<see cref="Engines.IEngineSearcher.OpenDocValues"/>): what
/// collectors read instead of the documents. Read a batch at a time, so a collector costs the engine one
/// call per batch rather than one per entry.
/// </summary>
public interface IDocValues
{
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
}
