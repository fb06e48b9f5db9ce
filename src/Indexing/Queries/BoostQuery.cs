namespace Folio.Indexing.Queries;

/// <summary>
/// The entries of a clause, with its score multiplied by a factor: a clause that scores (one with a full-text part, see
/// <see cref="QueryScoring"/>) scores its own score times the factor, any other clause scores the factor itself,
/// so <c>boost(Category = 'x', 10) or search(Name, 'y')</c> ranks the category's entries first.
/// </summary>
public sealed class BoostQuery(Query clause, float factor) : Query
{
    /// <summary>The boosted clause.</summary>
    public Query Clause { get; } = clause;

    /// <summary>The factor, greater than zero.</summary>
    public float Factor { get; } = factor;
}
