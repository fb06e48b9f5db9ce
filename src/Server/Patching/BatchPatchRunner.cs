using System.Text.Json;
using Folio.Indexing.Patching;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Documents;
using Folio.Storage.Documents;

namespace Folio.Server.Patching;

/// <summary>
/// Runs a <c>bulk_docs</c> batch that holds PATCH commands. The scripts run outside the write transaction, each on the
/// document as the batch's earlier commands leave it; every patch then becomes a PUT in the one transaction, on the
/// condition that a document read from storage is still the version the script saw (for a document the script created,
/// that it still does not exist). A batch that lost that race is patched again from the newer versions; with the
/// client's own change vector the race is the client's and answers 409.
/// </summary>
public sealed class BatchPatchRunner : IDisposable
{
    // As many rounds as a single patch gets before a hot document's conflict goes back to the client.
    private const int Attempts = 64;

    private readonly IReadOnlyList<BulkCommand> _commands;
    private readonly ServerOptions _options;
    private readonly DocumentPatcher?[] _patchers;
    private readonly DocumentPatcher?[] _ifMissing;
    private readonly List<JsonDocument> _bodies = [];

    /// <summary>Compiles the batch's scripts; a malformed patch object or script refuses the batch before anything runs.</summary>
    /// <param name="commands">The parsed batch.</param>
    /// <param name="options">Supplies the script limits and the depth limit.</param>
    public BatchPatchRunner(IReadOnlyList<BulkCommand> commands, ServerOptions options)
    {
        _commands = commands;
        _options = options;
        _patchers = new DocumentPatcher?[commands.Count];
        _ifMissing = new DocumentPatcher?[commands.Count];
        try
        {
            for (int i = 0; i < commands.Count; i++)
            {
                if (commands[i].Patch is not { } patch)
                    continue;
                _patchers[i] = Compile(patch.Patch, i, "Patch");
                if (patch.PatchIfMissing is { } ifMissing)
                    _ifMissing[i] = Compile(ifMissing, i, "PatchIfMissing");
            }
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>Whether the batch holds a PATCH command.</summary>
    public static bool HasPatches(IReadOnlyList<BulkCommand> commands)
    {
        foreach (var command in commands)
        {
            if (command.Patch is not null)
                return true;
        }
        return false;
    }

    /// <summary>Runs the batch in one transaction; the outcome lists, per command, its write and, for a patch, its status.</summary>
    /// <param name="database">The database written to.</param>
    /// <param name="cancellationToken">Stops the pause between attempts (a queued write is never cancelled).</param>
    /// <returns>The outcome, in command order.</returns>
    public async Task<BatchOutcome> RunAsync(Database database, CancellationToken cancellationToken)
    {
        for (int attempt = 1; ; attempt++)
        {
            var plan = Plan(database);
            try
            {
                var written = plan.Writes.Count == 0 ? [] : await database.Store.BatchAsync(plan.Writes);
                return plan.Complete(written, database.Store);
            }
            catch (ConcurrencyException conflict) when (conflict.Id is { } id && plan.OwnConditions.Contains(id) && attempt < Attempts)
            {
                // Another writer changed a document after its script read it: patch the newer version, after a random
                // pause that grows with the attempts, so batches racing on one document spread out.
                await Task.Delay(Random.Shared.Next(1, 2 + (2 * attempt)), cancellationToken);
            }
        }
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        foreach (var patcher in _patchers)
            patcher?.Dispose();
        foreach (var patcher in _ifMissing)
            patcher?.Dispose();
        foreach (var body in _bodies)
            body.Dispose();
    }

    private BatchPlan Plan(Database database)
    {
        var plan = new BatchPlan(_commands.Count);
        // What the batch's earlier commands leave for each id (null: deleted), which the storage does not show yet.
        var pending = new Dictionary<string, byte[]?>(StringComparer.OrdinalIgnoreCase);
        using var reader = database.Store.OpenReader();
        for (int i = 0; i < _commands.Count; i++)
        {
            var command = _commands[i];
            if (command.Write is { } write)
            {
                plan.Add(i, write);
                pending[write.Id] = write.Document is { } document ? Complete(document) : null;
                continue;
            }

            var patch = command.Patch!;
            bool inBatch = pending.TryGetValue(patch.Id, out var current);
            string? read = null;
            if (!inBatch && reader.TryGet(patch.Id, out var stored))
            {
                current = stored.Json.ToArray();
                read = ChangeVector.ToString(stored.Etag, database.DatabaseIdBytes);
            }

            byte[] patched;
            PatchStatus status;
            PreparedDocument? prepared = null;
            if (current is null)
            {
                if (patch.CreateIfMissing is { } create)
                {
                    prepared = create;
                    patched = Complete(create);
                }
                else if (_ifMissing[i] is { } ifMissing)
                    patched = ifMissing.Apply("{}"u8, reader);
                else
                {
                    plan.Skip(i, PatchStatus.DocumentDoesNotExist, null);
                    continue;
                }
                status = PatchStatus.Created;
            }
            else
            {
                patched = _patchers[i]!.Apply(current, reader);
                if (!inBatch && patched.AsSpan().SequenceEqual(current))
                {
                    plan.Skip(i, PatchStatus.NotModified, read);
                    continue;
                }
                status = PatchStatus.Patched;
            }

            // A document this batch already wrote is whatever that write made it: no condition beyond the client's.
            // One read from storage must still be the version read (an empty change vector: still missing).
            var condition = patch.ChangeVector ?? (inBatch ? null : read ?? string.Empty);
            if (patch.ChangeVector is null && !inBatch)
                plan.OwnConditions.Add(patch.Id);
            plan.Add(i, new DocumentCommand(DocumentCommandType.Put, patch.Id, prepared ?? PreparedDocument.Parse(patched, _options.MaxJsonDepth), condition), status);
            pending[patch.Id] = patched;
        }
        return plan;
    }

    // A prepared document's stored form leaves the metadata open for the store's own properties (its collection among them).
    private static byte[] Complete(PreparedDocument document)
    {
        var json = new byte[document.Prefix.Length + 2];
        document.Prefix.CopyTo(json, 0);
        json[^2] = (byte)'}';
        json[^1] = (byte)'}';
        return json;
    }

    private DocumentPatcher Compile(byte[] json, int index, string name)
    {
        var body = JsonDocument.Parse(json);
        _bodies.Add(body);
        var root = body.RootElement;
        if (!root.TryGetProperty("Script", out var script) || script.ValueKind != JsonValueKind.String)
            throw BulkDocsParser.Invalid($"Command {index} (PATCH {_commands[index].Id}): \"{name}\" must be an object with a \"Script\" string.");
        JsonElement? values = null;
        if (root.TryGetProperty("Values", out var given) && given.ValueKind != JsonValueKind.Null)
        {
            if (given.ValueKind != JsonValueKind.Object)
                throw BulkDocsParser.Invalid($"Command {index} (PATCH {_commands[index].Id}): \"{name}.Values\" must be an object; the script reads it as args.");
            values = given;
        }
        return DocumentPatcher.ForScript(script.GetString()!, values, _options.Scripting.ToLimits(), _options.MaxJsonDepth);
    }
}
