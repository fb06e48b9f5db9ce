using System.Text.Json;
using Folio.Storage.Documents.Compression;

namespace Folio.Server.Databases;

/// <summary>
/// A database's own choice of which collections' bodies are compressed, in the shape the seeds' system's clients
/// send it (<c>{"Collections":[…],"CompressAllCollections":bool,"CompressRevisions":bool}</c>). A database without one
/// follows the server's <c>DocumentsCompression</c> and <c>UncompressedCollections</c> settings.
/// </summary>
/// <param name="CompressAllCollections">Every collection is compressed.</param>
/// <param name="Collections">The collections compressed when not all are (compared without regard to case).</param>
/// <param name="CompressRevisions">Kept and answered for the seeds' clients; Folio keeps no revisions to compress.</param>
/// <param name="UncompressedCollections">Collections left out even when <paramref name="CompressAllCollections"/> is set (Folio's addition).</param>
public sealed record DocumentsCompressionSetting(bool CompressAllCollections, IReadOnlyList<string> Collections, bool CompressRevisions, IReadOnlyList<string> UncompressedCollections)
{
    /// <summary>The file in the database's directory that holds the setting.</summary>
    internal const string FileName = "documents-compression.json";

    /// <summary>The most collections a setting may name.</summary>
    internal const int MaxCollections = 10_000;

    /// <summary>The shape a body must have, for error messages.</summary>
    internal const string Shape = "The body must be {\"Collections\":[name, …],\"CompressAllCollections\":true|false,\"CompressRevisions\":true|false,\"UncompressedCollections\":[name, …]}; every property is optional.";

    /// <summary>Whether any collection is compressed.</summary>
    public bool CompressesAny => CompressAllCollections || Collections.Count > 0;

    /// <summary>The store's options under this setting, on top of the server's (level, training and retraining stay the server's).</summary>
    /// <param name="server">The server-wide options.</param>
    /// <returns>The options the database's store writes with.</returns>
    internal DocumentCompressionOptions Apply(DocumentCompressionOptions server) => server with
    {
        Enabled = CompressesAny,
        CompressedCollections = CompressedSet(),
        UncompressedCollections = UncompressedSet(),
    };

    /// <summary>The collections to compress, or null for all.</summary>
    internal IReadOnlySet<string>? CompressedSet() =>
        CompressAllCollections ? null : new HashSet<string>(Collections, StringComparer.OrdinalIgnoreCase);

    /// <summary>What a database without its own setting follows: the server's choice in this shape.</summary>
    /// <param name="server">The server-wide options.</param>
    /// <returns>Every collection compressed when the server compresses, less the ones it leaves out.</returns>
    internal static DocumentsCompressionSetting OfServer(DocumentCompressionOptions server) =>
        new(server.Enabled, [], false, [.. server.UncompressedCollections]);

    /// <summary>The collections left out.</summary>
    internal IReadOnlySet<string> UncompressedSet() => new HashSet<string>(UncompressedCollections, StringComparer.OrdinalIgnoreCase);

    /// <summary>Reads a setting from JSON; a property of the wrong kind, or a collection name that no document could carry, is refused.</summary>
    /// <param name="root">The parsed body or file.</param>
    /// <returns>The setting, or the reason it was refused.</returns>
    internal static (DocumentsCompressionSetting? Setting, string? Error) Read(JsonElement root)
    {
        if (root.ValueKind != JsonValueKind.Object)
            return (null, Shape);
        bool all = false, revisions = false;
        var collections = new List<string>();
        var uncompressed = new List<string>();
        foreach (JsonProperty property in root.EnumerateObject())
        {
            switch (property.Name)
            {
                case "CompressAllCollections" when property.Value.ValueKind is JsonValueKind.True or JsonValueKind.False:
                    all = property.Value.GetBoolean();
                    break;
                case "CompressRevisions" when property.Value.ValueKind is JsonValueKind.True or JsonValueKind.False:
                    revisions = property.Value.GetBoolean();
                    break;
                case "Collections" or "UncompressedCollections" or "Source" when property.Value.ValueKind == JsonValueKind.Null:
                    break;
                case "Source" when property.Value.ValueKind == JsonValueKind.String:
                    // What GET answers may be sent back as it is.
                    break;
                case "Collections" or "UncompressedCollections" when property.Value.ValueKind == JsonValueKind.Array:
                    if (ReadNames(property, property.Name == "Collections" ? collections : uncompressed) is { } problem)
                        return (null, problem);
                    break;
                default:
                    return (null, $"'{property.Name}' is not expected here. {Shape}");
            }
        }
        return (new DocumentsCompressionSetting(all, collections, revisions, uncompressed), null);
    }

    private static string? ReadNames(JsonProperty property, List<string> names)
    {
        if (property.Value.GetArrayLength() > MaxCollections)
            return $"{property.Name} names at most {MaxCollections} collections.";
        foreach (JsonElement item in property.Value.EnumerateArray())
        {
            if (item.ValueKind != JsonValueKind.String || item.GetString() is not { Length: > 0 } name)
                return $"Every entry of {property.Name} must be a collection's name: a non-empty string.";
            if (Describe(name, property.Name) is { } problem)
                return problem;
            names.Add(name);
        }
        return null;
    }

    /// <summary>Writes the setting as JSON, as the file keeps it and the routes answer it.</summary>
    /// <param name="writer">Where to write.</param>
    /// <param name="source">Written as <c>Source</c> when given: where the setting comes from.</param>
    internal void Write(Utf8JsonWriter writer, string? source = null)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Collections"u8);
        foreach (string collection in Collections)
            writer.WriteStringValue(collection);
        writer.WriteEndArray();
        writer.WriteBoolean("CompressAllCollections"u8, CompressAllCollections);
        writer.WriteBoolean("CompressRevisions"u8, CompressRevisions);
        writer.WriteStartArray("UncompressedCollections"u8);
        foreach (string collection in UncompressedCollections)
            writer.WriteStringValue(collection);
        writer.WriteEndArray();
        if (source is not null)
            writer.WriteString("Source"u8, source);
        writer.WriteEndObject();
    }

    /// <summary>The setting kept in <paramref name="directory"/>, or null when the database has none.</summary>
    /// <param name="directory">The database's directory.</param>
    /// <returns>The setting.</returns>
    /// <exception cref="InvalidDataException">The file is damaged: the database refuses to open rather than guess.</exception>
    internal static DocumentsCompressionSetting? Load(string directory)
    {
        string path = Path.Combine(directory, FileName);
        if (!File.Exists(path))
            return null;
        try
        {
            using JsonDocument file = JsonDocument.Parse(File.ReadAllBytes(path));
            var (setting, error) = Read(file.RootElement);
            return setting ?? throw new InvalidDataException($"{path} is not a documents compression setting: {error}");
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"{path} is not valid JSON: {e.Message}", e);
        }
    }

    /// <summary>Keeps the setting in <paramref name="directory"/>: written to a temporary file, flushed, and renamed over the old one, so a crash leaves one or the other.</summary>
    /// <param name="directory">The database's directory.</param>
    internal void Save(string directory)
    {
        string path = Path.Combine(directory, FileName);
        string temporary = path + ".tmp";
        using (FileStream stream = File.Create(temporary))
        {
            using (var writer = new Utf8JsonWriter(stream))
                Write(writer);
            stream.Flush(flushToDisk: true);
        }
        File.Move(temporary, path, overwrite: true);
    }

    private static string? Describe(string collection, string list)
    {
        for (int i = 0; i < collection.Length; i++)
        {
            char c = collection[i];
            if (char.IsControl(c))
                return $"A collection's name must not contain control characters (U+{(int)c:X4} at position {i} of an entry of {list}).";
            if (char.IsSurrogate(c) && (!char.IsHighSurrogate(c) || i + 1 >= collection.Length || !char.IsLowSurrogate(collection[++i])))
                return $"A collection's name must be valid Unicode (an entry of {list} has an unpaired surrogate).";
        }
        return null;
    }
}
