namespace Folio.Indexing.Rql;

/// <summary>
/// The seeds' <c>intersect(q1, q2, …)</c>: the documents that each sub-query matches, where each sub-query must match
/// within one index entry of the document (on an index with one entry per document, the same as <c>and</c>).
/// </summary>
public sealed record RqlIntersect(IReadOnlyList<RqlExpression> Parts, int Position) : RqlExpression;
