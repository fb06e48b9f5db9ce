namespace Folio.Indexing.Postings;

/// <summary>How the encoder picks the encoding of a block section. Only <see cref="Auto"/> is used
/// in production; the forced modes exist so the benchmark can measure each encoding on the same data.</summary>
internal enum BlockEncodingPolicy
{
    Auto,
    PackedOnly,
    VarintOnly,
}
