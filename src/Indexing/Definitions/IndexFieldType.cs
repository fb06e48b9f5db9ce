namespace Folio.Indexing.Definitions;

/// <summary>How a definition's field is indexed.</summary>
public enum IndexFieldType
{
    /// <summary>Exact string (numbers and booleans as their text).</summary>
    String,

    /// <summary>64-bit integer.</summary>
    Long,

    /// <summary>Double.</summary>
    Double,

    /// <summary>What auto indexes use: the exact string, plus the number when the value is numeric.</summary>
    Auto,
}
