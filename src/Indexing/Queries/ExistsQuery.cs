namespace Folio.Indexing.Queries;

/// <summary>Entries that have the field at all (an explicit null counts; a missing field does not).</summary>
public sealed class ExistsQuery(string field) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;
}
