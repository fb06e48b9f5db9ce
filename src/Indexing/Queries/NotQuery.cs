namespace Folio.Indexing.Queries;

/// <summary>Every entry that does not match the clause.</summary>
public sealed class NotQuery(Query clause) : Query
{
    /// <summary>The negated clause.</summary>
    public Query Clause { get; } = clause;
}
