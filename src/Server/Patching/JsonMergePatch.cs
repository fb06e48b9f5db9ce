using System.Buffers;
using System.Text.Json;

namespace Folio.Server.Patching;

/// <summary>
/// RFC 7396 JSON merge patch, for clients that change a document without a script: an object merges member by
/// member, <c>null</c> removes a member, anything else (arrays included) replaces the value whole.
/// </summary>
public static class JsonMergePatch
{
    /// <summary><paramref name="target"/> (a stored document) with <paramref name="patch"/> merged in, as UTF-8 JSON.</summary>
    /// <param name="target">The document's JSON.</param>
    /// <param name="patch">The merge patch; it must be an object, since a document must stay one.</param>
    /// <param name="maxDepth">The deepest nesting the stored document may have.</param>
    /// <returns>The merged document.</returns>
    public static byte[] Apply(ReadOnlySpan<byte> target, JsonElement patch, int maxDepth)
    {
        using var document = JsonDocument.Parse(target.ToArray(), new JsonDocumentOptions { MaxDepth = maxDepth });
        var buffer = new ArrayBufferWriter<byte>(target.Length + 256);
        using (var writer = new Utf8JsonWriter(buffer))
            Merge(writer, document.RootElement, patch);
        return buffer.WrittenSpan.ToArray();
    }

    private static void Merge(Utf8JsonWriter writer, JsonElement? target, JsonElement patch)
    {
        if (patch.ValueKind != JsonValueKind.Object)
        {
            patch.WriteTo(writer);
            return;
        }
        writer.WriteStartObject();
        if (target is { ValueKind: JsonValueKind.Object } existing)
        {
            foreach (var member in existing.EnumerateObject())
            {
                if (!patch.TryGetProperty(member.Name, out var change))
                {
                    member.WriteTo(writer);
                }
                else if (change.ValueKind != JsonValueKind.Null)
                {
                    writer.WritePropertyName(member.Name);
                    Merge(writer, member.Value, change);
                }
            }
        }
        foreach (var member in patch.EnumerateObject())
        {
            if (member.Value.ValueKind == JsonValueKind.Null || (target is { ValueKind: JsonValueKind.Object } old && old.TryGetProperty(member.Name, out _)))
                continue;
            writer.WritePropertyName(member.Name);
            Merge(writer, null, member.Value);
        }
        writer.WriteEndObject();
    }
}
