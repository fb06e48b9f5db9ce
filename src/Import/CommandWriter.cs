using System.Buffers;
using System.Text.Json;

namespace Folio.Import;

/// <summary>
/// Turns one document into a bulk insert command, <c>{"Type":"PUT","Id":…,"Document":…}</c>, copying the
/// document's bytes as they are. The id is the document's <c>"@id"</c> (or else <c>"Id"</c>) string property,
/// or the configured prefix for a server-made id.
/// </summary>
public sealed class CommandWriter
{
    private readonly ArrayBufferWriter<byte> _output;
    private readonly byte[]? _prefix;
    private bool _wroteOne;

    /// <summary>Creates a writer appending to <paramref name="output"/>.</summary>
    /// <param name="output">Receives the commands, comma separated.</param>
    /// <param name="idPrefix">The prefix for documents without an id, or null to require one.</param>
    public CommandWriter(ArrayBufferWriter<byte> output, string? idPrefix)
    {
        _output = output;
        // Already JSON-escaped, so it is copied between quotes like an id taken from a document.
        _prefix = idPrefix is null ? null : JsonEncodedText.Encode(idPrefix).EncodedUtf8Bytes.ToArray();
    }

    /// <summary>Appends the command for <paramref name="document"/>.</summary>
    /// <param name="document">One JSON object.</param>
    /// <param name="where">The document's place in its file, for error messages (e.g. "data.jsonl line 7").</param>
    /// <exception cref="ImportException">The document is not a JSON object, or has no id and no prefix was given.</exception>
    public void Write(ReadOnlySpan<byte> document, string where)
    {
        ReadOnlySpan<byte> id = FindId(document, where, out bool found);
        if (!found)
            id = _prefix ?? throw new ImportException($"{where}: the document has no \"@id\" or \"Id\" string property; pass --id-prefix for server-made ids.");

        if (_wroteOne)
            Append(","u8);
        _wroteOne = true;
        Append("{\"Type\":\"PUT\",\"Id\":\""u8);
        Append(id);
        Append("\",\"Document\":"u8);
        Append(document);
        Append("}"u8);
    }

    private static ReadOnlySpan<byte> FindId(ReadOnlySpan<byte> document, string where, out bool found)
    {
        found = false;
        ReadOnlySpan<byte> id = default;
        var reader = new Utf8JsonReader(document);
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                throw new ImportException($"{where}: a document must be a JSON object.");
            while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
            {
                bool atId = reader.ValueTextEquals("@id"u8);
                bool plainId = !atId && reader.ValueTextEquals("Id"u8);
                reader.Read();
                // "@id" wins over "Id": it is the importer's convention, "Id" may be the entity's own field.
                if ((atId || (plainId && !found)) && reader.TokenType == JsonTokenType.String && reader.ValueSpan.Length > 0)
                {
                    id = reader.ValueSpan;
                    found = true;
                }

                reader.Skip();
            }
        }
        catch (JsonException e)
        {
            throw new ImportException($"{where}: not valid JSON: {e.Message}", e);
        }

        return id;
    }

    private void Append(ReadOnlySpan<byte> bytes) => _output.Write(bytes);
}
