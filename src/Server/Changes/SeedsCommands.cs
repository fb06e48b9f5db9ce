using System.Text.Json;

namespace Folio.Server.Changes;

/// <summary>
/// The seeds' clients' watch commands (<c>watch-doc</c>, <c>watch-docs</c>, <c>watch-prefix</c>, <c>watch-collection</c>,
/// <c>watch-index</c>, <c>watch-indexes</c>, <c>watch-operation</c>, <c>watch-operations</c> and their <c>unwatch-</c>
/// pairs) read as Folio's. Commands about what Folio does not keep (counters, time series, topology, aggressive
/// caching) are confirmed and report nothing, so a client waiting for its subscription is not left hanging.
/// </summary>
internal static class SeedsCommands
{
    /// <summary>Marks a <see cref="FormatException"/> about a command in the seeds' form, to be answered in their shape.</summary>
    public const string IsSeedsKey = "SeedsForm";

    /// <summary>Whether <paramref name="name"/> is in the seeds' lower-case, dashed form.</summary>
    public static bool IsSeedsForm(string name) =>
        name.StartsWith("watch-", StringComparison.Ordinal) || name.StartsWith("unwatch-", StringComparison.Ordinal);

    /// <summary>The command as Folio's; a <see cref="FormatException"/> says what is wrong with it.</summary>
    public static WatchCommand Parse(long? commandId, string name, JsonElement root)
    {
        bool starts = name.StartsWith("watch-", StringComparison.Ordinal);
        string what = name[(starts ? "watch-".Length : "unwatch-".Length)..];
        (string target, bool needsParam) = what switch
        {
            "doc" => ("Document", true),
            "docs" => ("AllDocuments", false),
            "prefix" => ("Prefix", true),
            "collection" => ("Collection", true),
            "index" or "indexes" => ("Indexes", false),
            "operation" or "operations" => ("Operations", false),
            _ => ("Nothing", false),
        };
        string? argument = null;
        if (needsParam)
        {
            if (!root.TryGetProperty("Param", out JsonElement param) || param.ValueKind != JsonValueKind.String || param.GetString()!.Length == 0)
                throw new FormatException($"'{name}' needs 'Param' as a non-empty string.") { Data = { [IsSeedsKey] = true } };
            argument = param.GetString();
        }

        return new WatchCommand(commandId, (starts ? "Watch" : "Unwatch") + target, argument, Seeds: true);
    }
}
