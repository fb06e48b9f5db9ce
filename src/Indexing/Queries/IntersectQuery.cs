namespace Folio.Indexing.Queries;

/// <summary>
/// The entries of the documents each part matches in one of their entries (the seeds' <c>intersect()</c> on an index of
/// several entries per document): documents are told apart by <see cref="DocumentField"/>, an exact field all of a
/// document's entries share; of those documents, the entries matching some part.
/// </summary>
public sealed class IntersectQuery(IReadOnlyList<Query> parts, string documentField) : Query
{
    /// <summary>The parts, each matched within one entry.</summary>
    public IReadOnlyList<Query> Parts { get; } = parts;

    /// <summary>The exact field naming an entry's document.</summary>
    public string DocumentField { get; } = documentField;
}
