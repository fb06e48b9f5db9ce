using System.Text.Json;
using Folio.Server.Http;
using Folio.Server.Wire;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>
/// Reads a <c>bulk_docs</c> body, <c>{"Commands":[{"Type":"PUT","Id","Document","ChangeVector"?},{"Type":"DELETE","Id","ChangeVector"?},
/// {"Type":"PATCH","Id","Patch","PatchIfMissing"?,"CreateIfMissing"?,"ReturnDocument"?,"ChangeVector"?}]}</c>,
/// into storage commands and patches. Every command is checked before any is run, so a bad one fails the batch
/// without writing anything; problems name the command by its index.
/// </summary>
public static class BulkDocsParser
{
    // The body wraps each document in {"Commands":[{"Document": ...}]}: three levels above the document's own.
    private const int EnvelopeDepth = 3;

    /// <summary>Parses and validates the commands.</summary>
    /// <param name="json">The request body.</param>
    /// <param name="maxDepth">Deepest nesting allowed inside one document.</param>
    /// <param name="maxDocumentBytes">Largest document allowed.</param>
    /// <returns>The commands in order, and whether the batch is cluster-wide (<c>"TransactionMode":"ClusterWide"</c>).</returns>
    /// <exception cref="FolioHttpException">400 for a malformed body or command, 413 for an oversized document.</exception>
    /// <exception cref="JsonException">The body is not well-formed JSON (answered 400 by the dispatcher).</exception>
    public static BulkBatch Parse(ReadOnlySpan<byte> json, int maxDepth, long maxDocumentBytes)
    {
        // The JSON reader does not check the UTF-8 inside strings; ids and documents must be valid text.
        if (!System.Text.Unicode.Utf8.IsValid(json))
            throw Invalid("The body is not valid UTF-8.");

        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth + EnvelopeDepth, CommentHandling = JsonCommentHandling.Disallow });
        if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
            throw Invalid("The body must be a JSON object with a \"Commands\" array.");

        List<BulkCommand>? commands = null;
        bool clusterWide = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            bool isCommands = reader.ValueTextEquals("Commands"u8);
            bool isMode = reader.ValueTextEquals("TransactionMode"u8);
            reader.Read();
            if (isMode)
            {
                clusterWide = reader.TokenType switch
                {
                    JsonTokenType.String when reader.ValueTextEquals("ClusterWide"u8) => true,
                    JsonTokenType.String when reader.ValueTextEquals("SingleNode"u8) => false,
                    JsonTokenType.Null => false,
                    _ => throw Invalid("\"TransactionMode\" must be \"SingleNode\" or \"ClusterWide\"."),
                };
                continue;
            }

            if (!isCommands)
            {
                reader.Skip();
                continue;
            }

            if (reader.TokenType != JsonTokenType.StartArray)
                throw Invalid("\"Commands\" must be an array.");
            commands = [];
            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
                commands.Add(ReadCommand(ref reader, json, commands.Count, maxDepth, maxDocumentBytes));
        }

        if (reader.Read())
            throw Invalid("The body must be one JSON object; there is more after it.");
        var parsed = commands ?? throw Invalid("The body has no \"Commands\" array.");
        if (!clusterWide)
        {
            foreach (var command in parsed)
            {
                if (command.Exchange is not null)
                    throw Invalid($"Command {parsed.IndexOf(command)}: compare exchange commands need \"TransactionMode\": \"ClusterWide\".");
            }
        }
        return new BulkBatch(parsed, clusterWide);
    }

    private static BulkCommand ReadCommand(ref Utf8JsonReader reader, ReadOnlySpan<byte> json, int index, int maxDepth, long maxDocumentBytes)
    {
        if (reader.TokenType != JsonTokenType.StartObject)
            throw Invalid($"Command {index} must be a JSON object.");

        var type = CommandType.Unknown;
        string? typeText = null;
        string? id = null;
        bool idIsNull = false;
        string? changeVector = null;
        ReadOnlySpan<byte> document = default;
        bool hasDocument = false;
        var patch = new PatchParts();
        long? exchangeIndex = null;
        string? originalChangeVector = null;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var property = CommandShape.Property(ref reader);
            var patchPart = PatchParts.Part(ref reader);
            bool isIndex = reader.ValueTextEquals("Index"u8);
            bool isOriginal = reader.ValueTextEquals("OriginalChangeVector"u8);
            reader.Read();
            if (patchPart != PatchPart.None)
            {
                patch.Read(patchPart, ref reader, json, index);
                continue;
            }

            // Only compare-exchange commands use "Index" (other commands ignore it, as they ignore any property
            // they do not use); one that is no whole number is refused when the command needs it.
            if (isIndex)
            {
                exchangeIndex = reader.TokenType == JsonTokenType.Number && reader.TryGetInt64(out long value) && value >= 0 ? value : -1;
                reader.Skip();
                continue;
            }

            if (isOriginal)
            {
                originalChangeVector = reader.TokenType == JsonTokenType.String ? reader.GetString() : null;
                reader.Skip();
                continue;
            }

            switch (property)
            {
                case CommandProperty.Type:
                    if (reader.TokenType != JsonTokenType.String)
                        throw Invalid($"Command {index}: \"Type\" must be \"PUT\", \"DELETE\" or \"PATCH\".");
                    type = CommandShape.Type(ref reader);
                    typeText = reader.GetString();
                    break;
                case CommandProperty.Id:
                    idIsNull = reader.TokenType == JsonTokenType.Null;
                    id = reader.TokenType == JsonTokenType.String ? reader.GetString() : idIsNull ? null : throw Invalid($"Command {index}: \"Id\" must be a string or null.");
                    break;
                case CommandProperty.ChangeVector:
                    changeVector = reader.TokenType switch
                    {
                        JsonTokenType.String => reader.GetString(),
                        JsonTokenType.Null => null,
                        _ => throw Invalid($"Command {index}: \"ChangeVector\" must be a string or null."),
                    };
                    break;
                case CommandProperty.Document:
                    if (reader.TokenType != JsonTokenType.StartObject)
                        throw Invalid($"Command {index}: \"Document\" must be a JSON object.");
                    int start = (int)reader.TokenStartIndex;
                    reader.Skip();
                    document = json[start..(int)reader.BytesConsumed];
                    hasDocument = true;
                    break;
                default:
                    // Clients may send fields Folio does not use; they do not change what the command does.
                    reader.Skip();
                    break;
            }
        }

        if (CompareExchangeType(typeText) is { } exchangeType)
            return ReadExchange(exchangeType, id, exchangeIndex, document, hasDocument, index, maxDocumentBytes);

        // A PUT without an id (null or empty, as the seeds' system's clients send for objects they cannot name) gets a
        // new GUID, as in that system.
        if (type == CommandType.Put && (idIsNull || id is { Length: 0 }))
            id = Guid.NewGuid().ToString("D");
        if (id is null)
            throw Invalid($"Command {index} has no \"Id\".");
        ValidateId(id, index);
        if (type == CommandType.Put)
        {
            if (!hasDocument)
                throw Invalid($"Command {index} (PUT {id}) has no \"Document\".");
            if (document.Length > maxDocumentBytes)
            {
                throw new FolioHttpException(
                    StatusCodes.Status413PayloadTooLarge,
                    "Document too large",
                    $"Command {index} (PUT {id}): the document is {document.Length} bytes; the limit is {maxDocumentBytes} bytes.",
                    ProblemTypes.TooLarge);
            }

            PreparedDocument prepared;
            try
            {
                prepared = PreparedDocument.Parse(document, maxDepth);
            }
            catch (DocumentValidationException e)
            {
                throw new FolioHttpException(StatusCodes.Status400BadRequest, "Invalid document", $"Command {index} (PUT {id}): {e.Message}", ProblemTypes.InvalidDocument);
            }

            return new BulkCommand(new DocumentCommand(DocumentCommandType.Put, id, prepared, changeVector), null) { OriginalChangeVector = originalChangeVector };
        }

        if (type == CommandType.Delete)
            return new BulkCommand(new DocumentCommand(DocumentCommandType.Delete, id, null, changeVector), null) { OriginalChangeVector = originalChangeVector };
        if (string.Equals(typeText, "PATCH", StringComparison.OrdinalIgnoreCase))
            return new BulkCommand(null, patch.ToPatch(id, changeVector, index, maxDepth));

        throw Invalid($"Command {index}: \"Type\" must be \"PUT\", \"DELETE\", \"PATCH\", \"CompareExchangePUT\" or \"CompareExchangeDELETE\"" + (typeText is null ? "; it is missing." : $"; it is \"{typeText}\"."));
    }

    private static CompareExchangeCommandType? CompareExchangeType(string? typeText) =>
        string.Equals(typeText, "CompareExchangePUT", StringComparison.OrdinalIgnoreCase) ? CompareExchangeCommandType.Put
        : string.Equals(typeText, "CompareExchangeDELETE", StringComparison.OrdinalIgnoreCase) ? CompareExchangeCommandType.Delete
        : null;

    /// <summary>A compare-exchange command: <c>{"Type","Id" (the key),"Index","Document"?}</c>.</summary>
    private static BulkCommand ReadExchange(CompareExchangeCommandType type, string? key, long? expectedIndex, ReadOnlySpan<byte> document, bool hasDocument, int index, long maxDocumentBytes)
    {
        if (string.IsNullOrEmpty(key))
            throw Invalid($"Command {index} has no \"Id\" (the compare exchange key).");
        try
        {
            CompareExchangeEntries.Validate(key);
        }
        catch (DocumentValidationException e)
        {
            throw Invalid($"Command {index}: {e.Message}");
        }

        if (expectedIndex is not { } expected)
            throw Invalid($"Command {index} ({key}) has no \"Index\".");
        if (expected < 0)
            throw Invalid($"Command {index} ({key}): \"Index\" must be a non-negative whole number.");
        if (type == CompareExchangeCommandType.Delete)
            return new BulkCommand(null, null) { Exchange = new CompareExchangeCommand(type, key, expected, null) };
        if (!hasDocument)
            throw Invalid($"Command {index} (CompareExchangePUT {key}) has no \"Document\".");
        if (document.Length > maxDocumentBytes)
        {
            throw new FolioHttpException(
                StatusCodes.Status413PayloadTooLarge,
                "Document too large",
                $"Command {index} (CompareExchangePUT {key}): the value is {document.Length} bytes; the limit is {maxDocumentBytes} bytes.",
                ProblemTypes.TooLarge);
        }

        return new BulkCommand(null, null) { Exchange = new CompareExchangeCommand(type, key, expected, document.ToArray()) };
    }

    private static void ValidateId(string id, int index)
    {
        try
        {
            DocumentIds.Validate(id);
        }
        catch (DocumentValidationException e)
        {
            throw new FolioHttpException(StatusCodes.Status400BadRequest, "Invalid document id", $"Command {index}: {e.Message}", ProblemTypes.InvalidDocumentId);
        }
    }

    /// <summary>A problem with the batch, naming what is wrong.</summary>
    internal static FolioHttpException Invalid(string detail) =>
        new(StatusCodes.Status400BadRequest, "Invalid batch", detail, ProblemTypes.BadRequest);
}
