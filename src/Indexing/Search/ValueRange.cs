namespace Folio.Indexing.Search;

/// <summary>A range of values (either bound may be open) for range counting.</summary>
public sealed record ValueRange(FieldValue? Lower, bool LowerInclusive, FieldValue? Upper, bool UpperInclusive);
