namespace Folio.Indexing.Queries;

/// <summary>
/// Entries like a source: the most significant terms (by tf-idf, <see cref="MoreLikeThisTerms"/>) of the source's
/// full-text <see cref="Fields"/>, looked for as a scored disjunction. The source is the first entry <see cref="Source"/>
/// matches, whose stored terms the engine reads (and whose document's entries the query leaves out), or, without one,
/// the texts of <see cref="Document"/> analyzed as their fields analyze text.
/// </summary>
public sealed class MoreLikeThisQuery(Query? source, IReadOnlyList<KeyValuePair<string, string>> document, IReadOnlyList<string> fields, MoreLikeThisOptions options,
    string? documentField = null) : Query
{
    /// <summary>
    /// The exact field whose value names an entry's document, shared by all of a document's entries: entries with the
    /// source's value are left out (null: only the source entry's own value is not looked up, nothing is left out).
    /// </summary>
    public string? DocumentField { get; } = documentField;

    /// <summary>Matches the source entry (its first match is the source); null when <see cref="Document"/> is the source.</summary>
    public Query? Source { get; } = source;

    /// <summary>An artificial source: texts by field (used when <see cref="Source"/> is null).</summary>
    public IReadOnlyList<KeyValuePair<string, string>> Document { get; } = document;

    /// <summary>The full-text fields whose terms are compared.</summary>
    public IReadOnlyList<string> Fields { get; } = fields;

    /// <summary>How terms are picked.</summary>
    public MoreLikeThisOptions Options { get; } = options;
}
