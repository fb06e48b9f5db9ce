namespace Folio.Indexing.Queries;

/// <summary>
/// Entries matching every clause in <paramref name="must"/> and none in <paramref name="mustNot"/>.
/// With no positive clause, the negations apply to every entry.
/// </summary>
public sealed class AndQuery(IReadOnlyList<Query> must, IReadOnlyList<Query>? mustNot = null) : Query
{
    /// <summary>The clauses that must match.</summary>
    public IReadOnlyList<Query> Must { get; } = must;

    /// <summary>The clauses that must not match.</summary>
    public IReadOnlyList<Query> MustNot { get; } = mustNot ?? [];
}
