using System.Text.Json;

namespace Folio.Server.Operations;

/// <summary>An operation's state as JSON: what <c>operations/state</c> answers and what <c>operations.json</c> holds.</summary>
internal static class OperationJson
{
    /// <summary>Writes <c>{"Id","Kind","Query","Status","Processed","Total","Error","StartedAt","CompletedAt"}</c>.</summary>
    public static void Write(Utf8JsonWriter writer, OperationState state)
    {
        writer.WriteStartObject();
        WriteMembers(writer, state);
        writer.WriteEndObject();
    }

    /// <summary>
    /// What <c>operations/state</c> answers: <see cref="Write"/>'s object and, for a fault,
    /// <c>"Result":{"Type","Message","Error","StatusCode"}</c>, the exception the seeds' clients raise for it.
    /// </summary>
    public static void WriteAnswer(Utf8JsonWriter writer, OperationState state)
    {
        writer.WriteStartObject();
        WriteMembers(writer, state);
        if (state.Status == OperationStatus.Faulted)
        {
            writer.WriteStartObject("Result"u8);
            writer.WriteString("Type"u8, RavenProtocol.RavenClientErrors.ExceptionType(state.ErrorType ?? string.Empty, StatusCodes.Status500InternalServerError));
            writer.WriteString("Message"u8, state.Error);
            writer.WriteString("Error"u8, state.Error);
            writer.WriteNumber("StatusCode"u8, StatusCodes.Status500InternalServerError);
            writer.WriteEndObject();
        }
        writer.WriteEndObject();
    }

    private static void WriteMembers(Utf8JsonWriter writer, OperationState state)
    {
        writer.WriteNumber("Id"u8, state.Id);
        writer.WriteString("Kind"u8, state.Kind.ToString());
        writer.WriteString("Query"u8, state.Query);
        writer.WriteString("Status"u8, state.Status.ToString());
        writer.WriteNumber("Processed"u8, state.Processed);
        writer.WriteNumber("Total"u8, state.Total);
        if (state.Error is null)
            writer.WriteNull("Error"u8);
        else
            writer.WriteString("Error"u8, state.Error);
        writer.WriteString("StartedAt"u8, state.StartedAt);
        if (state.CompletedAt is { } completed)
            writer.WriteString("CompletedAt"u8, completed);
        else
            writer.WriteNull("CompletedAt"u8);
    }

    /// <summary>Reads what <see cref="Write"/> wrote.</summary>
    public static OperationState Read(JsonElement item) => new(
        item.GetProperty("Id").GetInt64(),
        Enum.Parse<OperationKind>(item.GetProperty("Kind").GetString()!),
        item.GetProperty("Query").GetString()!,
        Enum.Parse<OperationStatus>(item.GetProperty("Status").GetString()!),
        item.GetProperty("Processed").GetInt64(),
        item.GetProperty("Total").GetInt64(),
        item.GetProperty("Error").GetString(),
        item.GetProperty("StartedAt").GetDateTime(),
        item.GetProperty("CompletedAt").ValueKind == JsonValueKind.Null ? null : item.GetProperty("CompletedAt").GetDateTime());
}
