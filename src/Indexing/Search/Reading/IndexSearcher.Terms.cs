namespace Folio.Indexing.Search;

// Terms: a query's values turned into the terms and bounds the field was indexed with (FieldTerms, by this index's schema).
public sealed partial class IndexSearcher
{
    internal byte[]? EqualityTerm(string field, FieldValue value) => FieldTerms.EqualityTerm(_index.Schema, field, value);

    internal byte[] NormalizedText(string field, string text) => FieldTerms.NormalizedText(_index.Schema, field, text);

    internal byte[]? WholeTerm(string field, FieldValue value) => FieldTerms.WholeTerm(_index.Schema, field, value);

    internal List<byte[]> AnalyzeDistinct(string field, string text) => FieldTerms.AnalyzeDistinct(_index.Schema, field, text);

    internal List<(byte[] Term, int Position)> AnalyzeWithPositions(string field, string text) => FieldTerms.AnalyzeWithPositions(_index.Schema, field, text);
}
