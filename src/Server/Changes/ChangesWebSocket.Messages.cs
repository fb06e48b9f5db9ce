using System.Text.Json;

namespace Folio.Server.Changes;

/// <summary>The messages a changes WebSocket sends besides document changes.</summary>
internal sealed partial class ChangesWebSocket
{
    private static void WriteConfirm(Utf8JsonWriter writer, WatchCommand command)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "Confirm"u8);
        if (command.CommandId is { } id)
            writer.WriteNumber("CommandId"u8, id);
        writer.WriteString("Command"u8, command.Name);
        writer.WriteEndObject();
    }

    private static void WriteError(Utf8JsonWriter writer, long? commandId, string detail)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "Error"u8);
        if (commandId is { } id)
            writer.WriteNumber("CommandId"u8, id);
        writer.WriteString("Title"u8, "Invalid command"u8);
        writer.WriteString("Detail"u8, detail);
        writer.WriteEndObject();
    }

    private static void WriteFellBehind(Utf8JsonWriter writer, long resumeFrom, long lastEtag)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "FellBehind"u8);
        writer.WriteNumber("ResumeFrom"u8, resumeFrom);
        writer.WriteNumber("LastEtag"u8, lastEtag);
        writer.WriteEndObject();
    }

    private static void WriteIndexChange(Utf8JsonWriter writer, IndexChange change)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "IndexChange"u8);
        writer.WriteString("Name"u8, change.Name);
        writer.WriteString("ChangeType"u8, change.Kind switch
        {
            IndexChangeKind.Created => "Created",
            IndexChangeKind.Deleted => "Deleted",
            IndexChangeKind.Reset => "Reset",
            _ => "BatchCompleted",
        });
        writer.WriteNumber("Etag"u8, change.Etag);
        writer.WriteEndObject();
    }
}
