using System.Buffers;
using System.Text;
using System.Text.Json;

namespace Folio.Storage.Documents;

/// <summary>
/// A client's JSON document checked and laid out for storage. The stored form is the client's
/// top-level properties as they came (raw bytes, no re-serialization), then <c>"@metadata"</c> with
/// the client's own metadata properties and, appended at write time, the ones the store owns
/// (<c>@collection</c>, <c>@id</c>, <c>@change-vector</c>, <c>@last-modified</c>). Reads then hand out
/// the stored bytes as they are.
/// </summary>
public sealed class PreparedDocument
{
    private static readonly byte[] MetadataName = "@metadata"u8.ToArray();

    /// <summary>Where the stored form opens the metadata object (left open for the store's own properties).</summary>
    private static ReadOnlySpan<byte> MetadataOpening => "\"@metadata\":{"u8;
    private static readonly byte[] CollectionName = "@collection"u8.ToArray();

    private PreparedDocument(byte[] prefix, bool metadataHasProperties, string? collection)
    {
        Prefix = prefix;
        MetadataHasProperties = metadataHasProperties;
        Collection = collection;
    }

    /// <summary>Everything up to where the store's metadata goes: <c>{...,"@metadata":{...</c>.</summary>
    public byte[] Prefix { get; }

    /// <summary>Whether the client's metadata left properties before the store's (so a comma is due).</summary>
    public bool MetadataHasProperties { get; }

    /// <summary>The collection the client named in <c>@metadata.@collection</c>, if any.</summary>
    public string? Collection { get; }

    /// <summary>The size of the stored document without the store's metadata.</summary>
    public int Length => Prefix.Length;

    /// <summary>Checks and lays out <paramref name="json"/>; throws <see cref="DocumentValidationException"/> for anything that is not a JSON object within the limits.</summary>
    public static PreparedDocument Parse(ReadOnlySpan<byte> json, int maxDepth = 64)
    {
        // The JSON reader checks structure but not the UTF-8 inside strings; stored bytes must be valid for every later reader.
        if (!System.Text.Unicode.Utf8.IsValid(json))
            throw new DocumentValidationException("The document is not valid UTF-8.");
        var reader = new Utf8JsonReader(json, new JsonReaderOptions { MaxDepth = maxDepth, CommentHandling = JsonCommentHandling.Disallow });
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartObject)
                throw new DocumentValidationException("A document must be a JSON object.");

            // Laid out in a pooled buffer and copied once into an array of the exact size: bulk inserts
            // prepare a hundred thousand documents a second, and a growable stream plus its copy was half
            // of what they allocated. The layout never exceeds the input plus the metadata name and a comma.
            var buffer = ArrayPool<byte>.Shared.Rent(json.Length + 32);
            try
            {
                var output = new SpanWriter(buffer);
                output.Write((byte)'{');
                var wroteProperty = false;
                ReadOnlySpan<byte> metadata = default;
                var sawMetadata = false;
                while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
                {
                    var start = (int)reader.TokenStartIndex;
                    var isMetadata = reader.ValueTextEquals(MetadataName);
                    reader.Read();
                    var valueStart = (int)reader.TokenStartIndex;
                    reader.Skip();
                    var end = (int)reader.BytesConsumed;
                    if (isMetadata)
                    {
                        if (sawMetadata)
                            throw new DocumentValidationException("A document may have only one @metadata property.");
                        sawMetadata = true;
                        metadata = json[valueStart..end];
                        continue;
                    }
                    if (wroteProperty)
                        output.Write((byte)',');
                    output.Write(json[start..end]);
                    wroteProperty = true;
                }
                if (reader.TokenType != JsonTokenType.EndObject)
                    throw new DocumentValidationException("A document must be a JSON object.");
                if (reader.Read())
                    throw new DocumentValidationException("A document must be one JSON object; there is more after it.");

                if (wroteProperty)
                    output.Write((byte)',');
                output.Write(MetadataOpening);
                var (hasProperties, collection) = metadata.IsEmpty ? (false, null) : CopyClientMetadata(metadata, ref output, maxDepth);
                return new PreparedDocument(output.Written.ToArray(), hasProperties, collection);
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
        catch (JsonException e)
        {
            throw new DocumentValidationException($"The document is not valid JSON: {e.Message}", e);
        }
        catch (InvalidOperationException e)
        {
            throw new DocumentValidationException($"The document is not valid JSON: {e.Message}", e);
        }
    }

    /// <summary>
    /// Lays out a document whose structure the caller has already read with a JSON reader of the same depth
    /// limit: <paramref name="json"/> is one JSON object, and <paramref name="bounds"/> holds the start and
    /// end offset (name through value) of each of its top-level properties, none of them <c>@metadata</c>.
    /// Only the UTF-8 inside strings is still checked. The bulk insert parser walks every token anyway, so
    /// this spares each document a second tokenizing pass.
    /// </summary>
    public static PreparedDocument FromProperties(ReadOnlySpan<byte> json, ReadOnlySpan<int> bounds)
    {
        if ((bounds.Length & 1) != 0)
            throw new ArgumentException("Bounds come in start and end pairs.", nameof(bounds));
        if (!System.Text.Unicode.Utf8.IsValid(json))
            throw new DocumentValidationException("The document is not valid UTF-8.");
        var count = bounds.Length / 2;
        var length = 1 + MetadataOpening.Length + count;
        for (var i = 0; i < bounds.Length; i += 2)
            length += bounds[i + 1] - bounds[i];
        var prefix = new byte[length];
        var output = new SpanWriter(prefix);
        output.Write((byte)'{');
        for (var i = 0; i < bounds.Length; i += 2)
        {
            output.Write(json[bounds[i]..bounds[i + 1]]);
            output.Write((byte)',');
        }
        output.Write(MetadataOpening);
        return new PreparedDocument(prefix, metadataHasProperties: false, collection: null);
    }

    /// <summary>Copies the client's metadata properties except the ones the store owns.</summary>
    private static (bool HasProperties, string? Collection) CopyClientMetadata(ReadOnlySpan<byte> metadata, ref SpanWriter output, int maxDepth)
    {
        var reader = new Utf8JsonReader(metadata, new JsonReaderOptions { MaxDepth = maxDepth });
        reader.Read();
        if (reader.TokenType != JsonTokenType.StartObject)
            throw new DocumentValidationException("@metadata must be a JSON object.");
        string? collection = null;
        var wrote = false;
        while (reader.Read() && reader.TokenType == JsonTokenType.PropertyName)
        {
            var start = (int)reader.TokenStartIndex;
            var isCollection = reader.ValueTextEquals(CollectionName);
            var reserved = isCollection || reader.ValueTextEquals("@id"u8) || reader.ValueTextEquals("@change-vector"u8) || reader.ValueTextEquals("@last-modified"u8);
            reader.Read();
            if (isCollection)
            {
                if (reader.TokenType != JsonTokenType.String)
                    throw new DocumentValidationException("@metadata.@collection must be a string.");
                collection = reader.GetString();
                if (string.IsNullOrWhiteSpace(collection) || Encoding.UTF8.GetByteCount(collection) > 256)
                    throw new DocumentValidationException("@metadata.@collection must be a non-empty name of at most 256 bytes.");
                ValidateCollectionCharacters(collection);
            }
            reader.Skip();
            if (reserved)
                continue;
            if (wrote)
                output.Write((byte)',');
            output.Write(metadata[start..(int)reader.BytesConsumed]);
            wrote = true;
        }
        return (wrote, collection);
    }

    /// <summary>
    /// A collection's name ends up in auto index names, URLs, logs and the studio, none of which can show a control
    /// character or half a surrogate pair: refused on write rather than stored and unqueryable.
    /// </summary>
    private static void ValidateCollectionCharacters(string collection)
    {
        for (var i = 0; i < collection.Length; i++)
        {
            var c = collection[i];
            if (char.IsControl(c))
                throw new DocumentValidationException($"@metadata.@collection must not contain control characters (U+{(int)c:X4} at position {i}).");
            if (char.IsSurrogate(c) && (!char.IsHighSurrogate(c) || i + 1 >= collection.Length || !char.IsLowSurrogate(collection[++i])))
                throw new DocumentValidationException("@metadata.@collection must be valid Unicode (it has an unpaired surrogate).");
        }
    }

    /// <summary>Appends to a span; the caller sized it for the worst case.</summary>
    private ref struct SpanWriter(Span<byte> destination)
    {
        private readonly Span<byte> _destination = destination;
        private int _length;

        public readonly ReadOnlySpan<byte> Written => _destination[.._length];

        public void Write(byte value) => _destination[_length++] = value;

        public void Write(ReadOnlySpan<byte> bytes)
        {
            bytes.CopyTo(_destination[_length..]);
            _length += bytes.Length;
        }
    }
}
