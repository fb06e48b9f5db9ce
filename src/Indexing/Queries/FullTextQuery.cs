namespace Folio.Indexing.Queries;

/// <summary>
/// Ranked full-text search: the text is analyzed like the field, and entries having any of its terms
/// (or all, with <paramref name="requireAll"/>) match, scored by BM25 summed over the terms they have.
/// </summary>
public sealed class FullTextQuery(string field, string text, bool requireAll = false) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The search text.</summary>
    public string Text { get; } = text;

    /// <summary>Whether an entry must have every term of the text rather than any.</summary>
    public bool RequireAll { get; } = requireAll;
}
