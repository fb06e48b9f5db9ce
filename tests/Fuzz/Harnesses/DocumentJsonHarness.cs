using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The document reader every write goes through (<see cref="PreparedDocument.Parse"/>): it refuses with
/// <see cref="DocumentValidationException"/> and nothing else, and what it accepts must close into JSON the store can
/// read back: the stored form is the prefix, the store's own metadata, then <c>}}</c>. The collection the client's
/// metadata names is kept aside (the store writes it), never copied into the prefix.
/// </summary>
public static class DocumentJsonHarness
{
    private const int MaxDepth = 64;

    // The store appends these to every document's metadata, so a client's own never reach the stored form.
    private static readonly string[] s_storeOwned = ["@collection", "@id", "@change-vector", "@last-modified"];

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
        foreach (string owned in s_storeOwned)
            InvariantException.Check(!metadata.TryGetProperty(owned, out _), $"The client's {owned} was kept; the store writes its own.");
        using (JsonDocument given = JsonDocument.Parse(input))
        {
            string? named = given.RootElement.TryGetProperty("@metadata", out JsonElement asked) && asked.TryGetProperty("@collection", out JsonElement collection)
                ? collection.GetString()
                : null;
            InvariantException.Check(document.Collection == named, "The collection is not the one the client's metadata names.");
        }

        // Storing a stored document again (an export read back, a patch's output) must be accepted.
        PreparedDocument.Parse(stored, MaxDepth);
    }
}
