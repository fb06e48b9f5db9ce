namespace Folio.Indexing.Search;

/// <summary>
/// The byte before each value in an entry's encoded doc values (a varint count, then per value this
/// byte and, unless null, the value's length-prefixed bytes).
/// </summary>
internal static class DocValueType
{
    /// <summary>A null value; no bytes follow.</summary>
    public const byte Null = 0;

    /// <summary>Text: exact values normalized, stored values as given, in UTF-8.</summary>
    public const byte Text = 1;

    /// <summary>A long as its eight-byte term.</summary>
    public const byte Long = 2;

    /// <summary>A double as its eight-byte term.</summary>
    public const byte Double = 3;
}
