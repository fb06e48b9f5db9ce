namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a term within <see cref="MaxEdits"/> edits of a term of the text (insertions, deletions,
/// substitutions and transpositions of adjacent characters, counted in code points), as Lucene's <c>FuzzyQuery</c>
/// matches: the text is analyzed like the field (a full-text field's tokens, an exact field's whole normalized value),
/// each of its terms expands to at most <see cref="MaxExpansions"/> of the field's terms, the most similar first
/// (similarity <c>1 - edits / min(length of the two)</c>, which must stay above 0; ties to the lower term), and a term
/// at <c>n</c> edits scores as a term search multiplied by its similarity. Only full-text fields score.
/// </summary>
public sealed class FuzzyQuery : Query
{
    /// <summary>The most edits a fuzzy term may allow (Lucene's limit).</summary>
    public const int MaxSupportedEdits = 2;

    /// <summary>How many of the field's terms one fuzzy term expands to at most (Lucene's default).</summary>
    public const int MaxExpansions = 50;

    /// <summary>A fuzzy query on <paramref name="field"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxEdits"/> is outside 0 to <see cref="MaxSupportedEdits"/>.</exception>
    public FuzzyQuery(string field, string text, int maxEdits = MaxSupportedEdits)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxEdits);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxEdits, MaxSupportedEdits);
        Field = field;
        Text = text;
        MaxEdits = maxEdits;
    }

    /// <summary>The field.</summary>
    public string Field { get; }

    /// <summary>The text whose terms are looked for.</summary>
    public string Text { get; }

    /// <summary>The most edits a matching term may be away.</summary>
    public int MaxEdits { get; }

    /// <summary>
    /// The most edits a fuzzy factor of the seeds' <c>fuzzy(F = 'value', factor)</c> allows for a value of
    /// <paramref name="length"/> code points, as Lucene maps a minimum similarity below 1: <c>floor((1 - factor) × length)</c>,
    /// at most <see cref="MaxSupportedEdits"/>.
    /// </summary>
    public static int EditsOfFactor(double factor, int length) => Math.Min((int)((1 - factor) * length), MaxSupportedEdits);
}
