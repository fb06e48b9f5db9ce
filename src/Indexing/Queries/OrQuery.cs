namespace Folio.Indexing.Queries;

/// <summary>Entries matching any clause; scores add up over the clauses that match.</summary>
public sealed class OrQuery(IReadOnlyList<Query> should) : Query
{
    /// <summary>The clauses.</summary>
    public IReadOnlyList<Query> Should { get; } = should;
}
