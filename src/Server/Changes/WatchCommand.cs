using System.Text.Json;

namespace Folio.Server.Changes;

/// <summary>
/// One command a changes WebSocket receives: <c>{"Command":"WatchCollection","Collection":"Orders","CommandId":7}</c>.
/// Commands: <c>Watch</c>/<c>Unwatch</c> + <c>Document</c> (<c>Id</c>), <c>Prefix</c> (<c>Prefix</c>), <c>Collection</c>
/// (<c>Collection</c>), <c>AllDocuments</c>, <c>Indexes</c>. <c>CommandId</c> is optional and echoed in the answer.
/// The seeds' clients' form, <c>{"CommandId":1,"Command":"watch-doc","Param":"users/1"}</c>, is read as the same
/// commands (<see cref="SeedsCommands"/>), with <see cref="Seeds"/> set so that the socket answers in their shapes.
/// </summary>
internal readonly record struct WatchCommand(long? CommandId, string Name, string? Argument, bool Seeds = false)
{
    /// <summary>Parses a command; a <see cref="FormatException"/> says what is wrong with it.</summary>
    public static WatchCommand Parse(ReadOnlyMemory<byte> json)
    {
        // The JSON reader checks escapes but not the UTF-8 of a string's raw bytes; reading such a string would throw
        // past the command's error handling.
        if (!System.Text.Unicode.Utf8.IsValid(json.Span))
            throw new FormatException("A command must be valid UTF-8 JSON.");
        using JsonDocument document = JsonDocument.Parse(json);
        JsonElement root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
            throw new FormatException("A command is a JSON object such as {\"Command\":\"WatchAllDocuments\"}.");
        long? commandId = null;
        if (root.TryGetProperty("CommandId", out JsonElement id))
        {
            if (id.ValueKind != JsonValueKind.Number || !id.TryGetInt64(out long value))
                throw new FormatException("'CommandId' must be a whole number.");
            commandId = value;
        }

        if (!root.TryGetProperty("Command", out JsonElement command) || command.ValueKind != JsonValueKind.String)
            throw new FormatException("A command needs 'Command' as a string, e.g. \"WatchCollection\".");
        string name = command.GetString()!;
        if (SeedsCommands.IsSeedsForm(name))
            return SeedsCommands.Parse(commandId, name, root);
        string? argumentName = ArgumentOf(name) ?? throw new FormatException(
            $"Unknown command '{name}'; the commands are Watch and Unwatch with Document, Prefix, Collection, AllDocuments or Indexes (e.g. WatchCollection).");
        string? argument = null;
        if (argumentName.Length > 0)
        {
            if (!root.TryGetProperty(argumentName, out JsonElement value) || value.ValueKind != JsonValueKind.String || value.GetString()!.Length == 0)
                throw new FormatException($"'{name}' needs '{argumentName}' as a non-empty string.");
            argument = value.GetString();
        }

        return new WatchCommand(commandId, name, argument);
    }

    /// <summary>Whether the command starts watching (else it stops).</summary>
    public bool Starts => Name.StartsWith("Watch", StringComparison.Ordinal);

    /// <summary>What is watched: the command's name without Watch or Unwatch.</summary>
    public string Target => Name[(Starts ? "Watch".Length : "Unwatch".Length)..];

    /// <summary>
    /// Applies a document command to <paramref name="filter"/>; <paramref name="filter"/> itself for <c>Indexes</c>,
    /// <c>Operations</c> and the seeds' kinds Folio has nothing to report on (<c>Nothing</c>).
    /// </summary>
    public ChangeFilter Apply(ChangeFilter filter) => Target switch
    {
        "Document" => filter.WithId(Argument!, Starts),
        "Prefix" => filter.WithPrefix(Argument!, Starts),
        "Collection" => filter.WithCollection(Argument!, Starts),
        "AllDocuments" => filter.WithAll(Starts),
        _ => filter,
    };

    private static string? ArgumentOf(string command) => command switch
    {
        "WatchDocument" or "UnwatchDocument" => "Id",
        "WatchPrefix" or "UnwatchPrefix" => "Prefix",
        "WatchCollection" or "UnwatchCollection" => "Collection",
        "WatchAllDocuments" or "UnwatchAllDocuments" or "WatchIndexes" or "UnwatchIndexes" => string.Empty,
        _ => null,
    };
}
