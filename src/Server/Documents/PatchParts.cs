using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>Which part of a batch's PATCH command a property is.</summary>
internal enum PatchPart
{
    None,
    Patch,
    PatchIfMissing,
    CreateIfMissing,
    ReturnDocument,
}

/// <summary>
/// The PATCH-only properties of one batch command, collected as the parser meets them (the client may send
/// <c>"Type"</c> after them), then checked once the command's type is known.
/// </summary>
internal struct PatchParts
{
    private byte[]? _patch;
    private byte[]? _patchIfMissing;
    private byte[]? _createIfMissing;
    private bool _returnDocument;

    /// <summary>Which PATCH part the reader's current property name is.</summary>
    public static PatchPart Part(ref readonly Utf8JsonReader reader) =>
        reader.ValueTextEquals("Patch"u8) ? PatchPart.Patch
        : reader.ValueTextEquals("PatchIfMissing"u8) ? PatchPart.PatchIfMissing
        : reader.ValueTextEquals("CreateIfMissing"u8) ? PatchPart.CreateIfMissing
        : reader.ValueTextEquals("ReturnDocument"u8) ? PatchPart.ReturnDocument
        : PatchPart.None;

    /// <summary>Reads the value of <paramref name="part"/>; null values count as absent.</summary>
    public void Read(PatchPart part, ref Utf8JsonReader reader, ReadOnlySpan<byte> json, int index)
    {
        if (part == PatchPart.ReturnDocument)
        {
            _returnDocument = reader.TokenType switch
            {
                JsonTokenType.True => true,
                JsonTokenType.False or JsonTokenType.Null => false,
                _ => throw BulkDocsParser.Invalid($"Command {index}: \"ReturnDocument\" must be a boolean."),
            };
            return;
        }

        if (reader.TokenType == JsonTokenType.Null)
            return;
        if (reader.TokenType != JsonTokenType.StartObject)
            throw BulkDocsParser.Invalid($"Command {index}: \"{part}\" must be a JSON object.");
        int start = (int)reader.TokenStartIndex;
        reader.Skip();
        var raw = json[start..(int)reader.BytesConsumed].ToArray();
        switch (part)
        {
            case PatchPart.Patch:
                _patch = raw;
                break;
            case PatchPart.PatchIfMissing:
                _patchIfMissing = raw;
                break;
            default:
                _createIfMissing = raw;
                break;
        }
    }

    /// <summary>The command as a patch; a PATCH without a <c>"Patch"</c> object is refused.</summary>
    public readonly BatchPatch ToPatch(string id, string? changeVector, int index, int maxDepth)
    {
        if (_patch is null)
            throw BulkDocsParser.Invalid($"Command {index} (PATCH {id}) has no \"Patch\" object with a \"Script\".");
        PreparedDocument? create = null;
        if (_createIfMissing is not null)
        {
            try
            {
                create = PreparedDocument.Parse(_createIfMissing, maxDepth);
            }
            catch (DocumentValidationException e)
            {
                throw BulkDocsParser.Invalid($"Command {index} (PATCH {id}): \"CreateIfMissing\": {e.Message}");
            }
        }
        return new BatchPatch(id, changeVector, _patch, _patchIfMissing, create, _returnDocument);
    }
}
