namespace Folio.Indexing.Collectors;

/// <summary>
/// One key of a sort: a field's value (the smallest value of a multi-valued field; missing and null
/// values sort before every value) or the relevance score. Ties go on to the next key, and in the end
/// to the entry id, so every order is total and stable.
/// </summary>
public sealed record SortField(string? Field, bool Descending = false)
{
    /// <summary>Sort by relevance, best first.</summary>
    public static SortField Score { get; } = new(null, Descending: true);

    /// <summary>Whether this key is the score.</summary>
    public bool IsScore => Field is null;
}
