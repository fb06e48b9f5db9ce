using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The document reader every write goes through (<see cref="PreparedDocument.Parse"/>): it refuses with
/// <see cref="DocumentValidationException"/> and nothing else, and what it accepts must close into JSON the store can
/// read back: the stored form is the prefix, the store's own metadata, then <c>}}</c>.
/// </summary>
public static class DocumentJsonHarness
{
    private const int MaxDepth = 64;

    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        PreparedDocument document;
        try
        {
            document = PreparedDocument.Parse(input, MaxDepth);
        }
        catch (DocumentValidationException)
        {
            return;
        }

        byte[] stored = [.. document.Prefix, .. "}}"u8];
        using JsonDocument closed = JsonDocument.Parse(stored, new JsonDocumentOptions { MaxDepth = MaxDepth + 1 });
        InvariantException.Check(closed.RootElement.ValueKind == JsonValueKind.Object, "The stored form is not an object.");
        InvariantException.Check(closed.RootElement.TryGetProperty("@metadata", out JsonElement metadata), "The stored form has no @metadata.");
        InvariantException.Check(document.MetadataHasProperties == (metadata.EnumerateObject().Any()), "MetadataHasProperties disagrees with the metadata written.");
        if (document.Collection is not null)
            InvariantException.Check(metadata.TryGetProperty("@collection", out JsonElement collection) && collection.GetString() == document.Collection, "The collection is not the one the metadata names.");

        // Storing a stored document again (an export read back, a patch's output) must be accepted.
        PreparedDocument.Parse(stored, MaxDepth);
    }
}
