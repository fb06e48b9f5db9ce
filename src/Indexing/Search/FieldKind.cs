namespace Folio.Indexing.Search;

/// <summary>How a field's values are indexed.</summary>
public enum FieldKind
{
    /// <summary>The whole value is one term (case-insensitive unless the field says otherwise).</summary>
    Exact,

    /// <summary>The value is analyzed into terms with positions, for ranked search and phrases.</summary>
    FullText,

    /// <summary>A 64-bit integer, ordered numerically (ranges, sorting).</summary>
    Long,

    /// <summary>A double, ordered numerically (ranges, sorting).</summary>
    Double,

    /// <summary>Kept for projections only; not searchable.</summary>
    Stored,
}
