namespace Folio.Indexing.Queries;

/// <summary>Entries whose field has a term starting with a prefix (after the field's normalization).</summary>
public sealed class PrefixQuery(string field, string prefix) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The prefix.</summary>
    public string Prefix { get; } = prefix;
}
