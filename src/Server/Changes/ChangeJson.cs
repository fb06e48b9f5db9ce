using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Server.Changes;

/// <summary>How the feeds write a document change: <c>{"Etag","Id","Collection","ChangeType","ChangeVector"[,"Document"]}</c>.</summary>
internal static class ChangeJson
{
    /// <summary>Writes <paramref name="change"/> as an object, first naming its message type when <paramref name="type"/> is given (WebSocket messages).</summary>
    public static void Write(Utf8JsonWriter writer, in ChangeRecord change, ReadOnlySpan<byte> databaseId, string? type = null)
    {
        writer.WriteStartObject();
        if (type is not null)
            writer.WriteString("Type"u8, type);
        writer.WriteNumber("Etag"u8, change.Etag);
        writer.WriteString("Id"u8, change.Id);
        writer.WriteString("Collection"u8, change.Collection);
        writer.WriteString("ChangeType"u8, change.Kind == DocumentChangeKind.Put ? "Put"u8 : "Delete"u8);
        Span<byte> vector = stackalloc byte[ChangeVector.MaxLength];
        writer.WriteString("ChangeVector"u8, vector[..ChangeVector.Format(change.Etag, databaseId, vector)]);
        if (change.Json is not null)
        {
            writer.WritePropertyName("Document"u8);
            writer.WriteRawValue(change.Json, skipInputValidation: true);
        }

        writer.WriteEndObject();
    }
}
