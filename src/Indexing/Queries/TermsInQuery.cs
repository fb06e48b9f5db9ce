using Folio.Indexing.Search;

namespace Folio.Indexing.Queries;

/// <summary>Entries whose field equals any of several values (each as <see cref="TermQuery"/> compares).</summary>
public sealed class TermsInQuery(string field, IReadOnlyList<FieldValue> values) : Query
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;

    /// <summary>The values.</summary>
    public IReadOnlyList<FieldValue> Values { get; } = values;
}
