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

    private static void WriteError(Utf8JsonWriter writer, long? commandId, string detail, bool seeds)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "Error"u8);
        if (commandId is { } id)
            writer.WriteNumber("CommandId"u8, id);
        writer.WriteString("Title"u8, "Invalid command"u8);
        writer.WriteString("Detail"u8, detail);
        // The seeds' clients read the error's text here.
        if (seeds)
            writer.WriteString("Exception"u8, detail);
        writer.WriteEndObject();
    }

    private static void WriteSeedsDocumentChange(Utf8JsonWriter writer, in ChangeRecord change, ReadOnlySpan<byte> databaseId)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "DocumentChange"u8);
        writer.WriteStartObject("Value"u8);
        writer.WriteString("Type"u8, change.Kind == Storage.Documents.DocumentChangeKind.Put ? "Put"u8 : "Delete"u8);
        writer.WriteString("Id"u8, change.Id);
        writer.WriteString("CollectionName"u8, change.Collection);
        Span<byte> vector = stackalloc byte[Storage.Documents.ChangeVector.MaxLength];
        writer.WriteString("ChangeVector"u8, vector[..Storage.Documents.ChangeVector.Format(change.Etag, databaseId, vector)]);
        writer.WriteEndObject();
        writer.WriteEndObject();
    }

    private static void WriteOperationChange(Utf8JsonWriter writer, Operations.OperationState operation)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "OperationStatusChange"u8);
        writer.WriteStartObject("Value"u8);
        writer.WriteNumber("OperationId"u8, operation.Id);
        writer.WriteStartObject("State"u8);
        writer.WriteString("Status"u8, operation.Status switch
        {
            Operations.OperationStatus.InProgress => "InProgress",
            Operations.OperationStatus.Completed => "Completed",
            Operations.OperationStatus.Cancelled => "Canceled",
            _ => "Faulted",
        });
        writer.WriteEndObject();
        writer.WriteEndObject();
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

    private static void WriteIndexChange(Utf8JsonWriter writer, IndexChange change, bool seeds)
    {
        if (seeds)
        {
            writer.WriteStartObject();
            writer.WriteString("Type"u8, "IndexChange"u8);
            writer.WriteStartObject("Value"u8);
            writer.WriteString("Type"u8, change.Kind switch
            {
                IndexChangeKind.Created => "IndexAdded",
                IndexChangeKind.Deleted => "IndexRemoved",
                IndexChangeKind.PriorityChanged => "PriorityChanged",
                IndexChangeKind.LockModeChanged => "LockModeChanged",
                IndexChangeKind.Paused => "IndexPaused",
                IndexChangeKind.Resumed => "IndexPromotedFromIdle",
                _ => "BatchCompleted",
            });
            writer.WriteString("Name"u8, change.Name);
            writer.WriteNumber("Etag"u8, change.Etag);
            writer.WriteEndObject();
            writer.WriteEndObject();
            return;
        }

        writer.WriteStartObject();
        writer.WriteString("Type"u8, "IndexChange"u8);
        writer.WriteString("Name"u8, change.Name);
        writer.WriteString("ChangeType"u8, change.Kind switch
        {
            IndexChangeKind.Created => "Created",
            IndexChangeKind.Deleted => "Deleted",
            IndexChangeKind.Reset => "Reset",
            IndexChangeKind.PriorityChanged => "PriorityChanged",
            IndexChangeKind.LockModeChanged => "LockModeChanged",
            IndexChangeKind.Paused => "Paused",
            IndexChangeKind.Resumed => "Resumed",
            _ => "BatchCompleted",
        });
        writer.WriteNumber("Etag"u8, change.Etag);
        writer.WriteEndObject();
    }
}
