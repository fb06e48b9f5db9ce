namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a term matching a pattern with <c>*</c> at its start, its end or both
/// (<c>*son</c>, <c>jo*</c>, <c>*oh*</c>); a <c>*</c> elsewhere is refused when the query is translated.
/// A leading <c>*</c> has to look at every term of the field.
/// </summary>
public sealed class WildcardQuery(string field, string pattern) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The pattern.</summary>
    public string Pattern { get; } = pattern;
}
