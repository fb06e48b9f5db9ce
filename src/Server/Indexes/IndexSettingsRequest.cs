using System.Text.Json;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;

namespace Folio.Server.Indexes;

/// <summary>
/// The <c>LockMode</c> and <c>Priority</c> a definition in a put may carry (both shapes: Folio's and the seeds' system's):
/// not part of what the index indexes, so they are set on the index after the put rather than compared with its definition.
/// </summary>
/// <param name="Name">The index's name.</param>
/// <param name="LockMode">The lock mode asked for, or null to leave it.</param>
/// <param name="Priority">The priority asked for, or null to leave it.</param>
internal sealed record IndexSettingsRequest(string Name, IndexLockMode? LockMode, IndexPriority? Priority)
{
    /// <summary>What <paramref name="item"/> asks for, or null when it names neither (a null value names nothing).</summary>
    /// <exception cref="IndexDefinitionException">A value is not one of the enumeration's names.</exception>
    public static IndexSettingsRequest? Read(JsonElement item, string name)
    {
        if (item.ValueKind != JsonValueKind.Object)
            return null;
        IndexLockMode? lockMode = Named<IndexLockMode>(item, "LockMode");
        IndexPriority? priority = Named<IndexPriority>(item, "Priority");
        return lockMode is null && priority is null ? null : new IndexSettingsRequest(name, lockMode, priority);
    }

    /// <summary>Sets what each request asks for on the index it names (which the put just made or kept).</summary>
    public static void Apply(IndexStore store, List<IndexSettingsRequest> requests)
    {
        foreach (var request in requests)
        {
            if (request.LockMode is { } mode)
                store.SetLockMode([request.Name], mode);
            if (request.Priority is { } priority)
                store.SetPriority([request.Name], priority);
        }
    }

    private static T? Named<T>(JsonElement item, string property)
        where T : struct, Enum
    {
        if (!item.TryGetProperty(property, out var value) || value.ValueKind == JsonValueKind.Null)
            return null;
        if (value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } text && !char.IsDigit(text[0])
            && Enum.TryParse(text, ignoreCase: false, out T parsed) && Enum.IsDefined(parsed))
            return parsed;
        throw new IndexDefinitionException($"{property} must be one of {string.Join(", ", Enum.GetNames<T>())}.");
    }
}
