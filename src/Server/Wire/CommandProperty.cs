namespace Folio.Server.Wire;

/// <summary>A property of a write command (see <see cref="CommandShape"/>).</summary>
public enum CommandProperty
{
    /// <summary>A property Folio does not read; clients may send extra fields.</summary>
    Other,

    /// <summary><c>"Type"</c>: <c>"PUT"</c> or <c>"DELETE"</c>.</summary>
    Type,

    /// <summary><c>"Id"</c>: the document's id (ending in <c>/</c> or <c>|</c> for a server-made one).</summary>
    Id,

    /// <summary><c>"Document"</c>: the document, a JSON object (PUT only).</summary>
    Document,

    /// <summary><c>"ChangeVector"</c>: the change vector the document must have, or null.</summary>
    ChangeVector,
}
