using System.Text.RegularExpressions;

namespace Folio.Indexing.Queries;

/// <summary>
/// Entries whose field has a value the regular expression finds a match in (anywhere, unless anchored with <c>^</c> and
/// <c>$</c>). The expression reads the field's values as indexed: on a field that folds case it matches ignoring case
/// (<see cref="Regex"/> is built so), on a case-sensitive one as written. It runs without backtracking, so its time grows
/// with the text, never exponentially. It has to look at every term of the field.
/// </summary>
public sealed class RegexQuery(string field, Regex regex) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The expression, compiled for the field.</summary>
    public Regex Regex { get; } = regex;
}
