namespace Folio.Storage.Trees;

/// <summary>The shape of a named tree, fixed when it is created.</summary>
public enum TreeKind : byte
{
    /// <summary>Variable-size keys to variable-size values.</summary>
    Regular = 1,

    /// <summary>One key to many sorted values (a posting list, a secondary index).</summary>
    MultiValue = 2,

    /// <summary>Int64 keys to values of one fixed size (documents by etag).</summary>
    FixedSize = 3,
}
