namespace Folio.Indexing.Search;

/// <summary>A value that cannot be indexed as its field's kind (text where a number belongs); the entry is not indexed.</summary>
public sealed class IndexValueException(string field, FieldValue value, string expected)
    : Exception($"Field '{field}' expects {expected}; '{value}' cannot be indexed as one.")
{
    /// <summary>The field.</summary>
    public string Field { get; } = field;
}
