using System.Text.Json;

namespace Folio.Server.Wire;

/// <summary>
/// The write command both batch endpoints read, <c>{"Type":"PUT"|"DELETE","Id","Document"?,"ChangeVector"?}</c>
/// (<c>bulk_docs</c> inside <c>{"Commands":[…]}</c>, <c>bulk_insert</c> as a streamed array of PUTs): its
/// property names and command types, recognised in one place so the two parsers cannot drift apart. The
/// OpenAPI document (<c>/openapi/v1.json</c>) describes the same shape for clients.
/// </summary>
public static class CommandShape
{
    /// <summary>Which of the command's properties the reader's current property name is.</summary>
    /// <param name="reader">A reader positioned on a property name inside a command object.</param>
    public static CommandProperty Property(ref readonly Utf8JsonReader reader) =>
        reader.ValueTextEquals("Type"u8) ? CommandProperty.Type
        : reader.ValueTextEquals("Id"u8) ? CommandProperty.Id
        : reader.ValueTextEquals("Document"u8) ? CommandProperty.Document
        : reader.ValueTextEquals("ChangeVector"u8) ? CommandProperty.ChangeVector
        : CommandProperty.Other;

    /// <summary>
    /// The command type the reader's current string names, case-insensitively; <see cref="CommandType.Unknown"/>
    /// for any other string or a value that is not a string.
    /// </summary>
    /// <param name="reader">A reader positioned on the value of <c>"Type"</c>.</param>
    public static CommandType Type(ref readonly Utf8JsonReader reader)
    {
        if (reader.TokenType != JsonTokenType.String)
            return CommandType.Unknown;
        // The spellings clients send, compared without decoding; any other casing is decoded once.
        if (reader.ValueTextEquals("PUT"u8) || reader.ValueTextEquals("put"u8))
            return CommandType.Put;
        if (reader.ValueTextEquals("DELETE"u8) || reader.ValueTextEquals("delete"u8))
            return CommandType.Delete;
        string? text;
        try
        {
            text = reader.GetString();
        }
        catch (InvalidOperationException)
        {
            return CommandType.Unknown;
        }
        return string.Equals(text, "PUT", StringComparison.OrdinalIgnoreCase) ? CommandType.Put
            : string.Equals(text, "DELETE", StringComparison.OrdinalIgnoreCase) ? CommandType.Delete
            : CommandType.Unknown;
    }
}
