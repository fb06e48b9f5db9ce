using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field equals a value: for exact fields after the field's normalization (lower-casing
/// unless case-sensitive), for numeric fields numerically, and for <see cref="FieldValue.Null"/> the
/// entries whose field is an explicit null.
/// </summary>
public sealed class TermQuery(string field, FieldValue value) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The value.</summary>
    public FieldValue Value { get; } = value;
}
