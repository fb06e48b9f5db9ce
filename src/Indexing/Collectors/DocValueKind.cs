namespace Folio.Indexing.Collectors;

/// <summary>
/// What a <see cref="DocValue"/> holds. The numbers are the bytes Folio's engine stores before each doc
/// value, so its stored values copy into a <see cref="DocValuesBlock"/> unchanged.
/// </summary>
public enum DocValueKind : byte
{
    /// <summary>An explicit null; no bytes.</summary>
    Null = 0,

    /// <summary>Text in UTF-8: an exact field's value normalized as the field compares it, a stored field's as given.</summary>
    Text = 1,

    /// <summary>A 64-bit integer as eight big-endian bytes of its bits with the sign bit flipped, so the bytes order like the numbers.</summary>
    Long = 2,

    /// <summary>
    /// A double as eight big-endian bytes of its IEEE bits, the sign bit flipped for positives and every bit for
    /// negatives, so the bytes order like the numbers (−0 as 0; never NaN).
    /// </summary>
    Double = 3,
}
