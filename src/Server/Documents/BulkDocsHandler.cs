using System.Buffers.Text;
using System.Text.Json;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Patching;
using Folio.Server.Routing;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary><c>POST /databases/{db}/bulk_docs</c>: PUT, DELETE and PATCH commands in one transaction, all or nothing.</summary>
public sealed class BulkDocsHandler
{
    private readonly DatabaseRegistry _databases;
    private readonly ServerOptions _options;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Resolves the <c>{db}</c> segment.</param>
    /// <param name="options">Supplies the body, document and depth limits.</param>
    public BulkDocsHandler(DatabaseRegistry databases, ServerOptions options)
    {
        _databases = databases;
        _options = options;
    }

    /// <summary>
    /// Runs the commands in one transaction and answers 201
    /// <c>{"Results":[{"Type","@id","@collection","@change-vector","@last-modified"}…]}</c> in command order
    /// (a DELETE answers <c>{"Type","@id","Id","Deleted"}</c>, a PATCH <c>{"Type","Id","ChangeVector","PatchStatus","LastModified","ModifiedDocument"?}</c>).
    /// A cluster-wide batch (<c>"TransactionMode":"ClusterWide"</c>) runs as <see cref="ClusterBatch"/> says.
    /// A failing command (bad input, a stale change vector, a failing script) fails the batch and nothing is written.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the batch is durable and the answer written.</returns>
    [FolioRoute("POST", "/databases/{db}/bulk_docs", Access = RouteAccess.DatabaseWrite)]
    public async ValueTask Post(FolioRequest request)
    {
        List<BulkCommand> commands;
        BatchOutcome outcome;
        // Read before the batch commits: a bad value must refuse the request without writing anything.
        TimeSpan? wait = QueryParameters.Optional(request.Request, "waitForIndexesTimeout") is { } waitText ? QueryParameters.Duration(waitText) : null;
        bool atomicGuards = ClusterBatch.AtomicGuards(request.Request);
        using (DatabaseLease lease = _databases.Lease(request.DatabaseSpan))
        {
            BulkBatch batch;
            using (RequestBody body = await RequestBody.ReadAsync(request.Request, _options.MaxRequestBodySizeBytes, request.Aborted))
                batch = BulkDocsParser.Parse(body.Span, _options.MaxJsonDepth, _options.MaxDocumentSizeBytes);
            commands = batch.Commands;
            if (batch.ClusterWide)
            {
                ClusterBatchResult cluster = await ClusterBatch.RunAsync(lease.Database, commands, atomicGuards);
                if (wait is { } clusterTimeout)
                    await WaitForIndexesAsync(lease.Database, cluster.Documents, clusterTimeout, request.Aborted);
                request.Response.StatusCode = StatusCodes.Status201Created;
                await JsonResponse.WriteAsync(request.Response, (commands, cluster), ClusterBatch.WriteResults, request.Aborted);
                return;
            }

            outcome = await RunAsync(lease.Database, commands, request.Aborted);
            if (wait is { } timeout)
                await WaitForIndexesAsync(lease.Database, outcome.Written, timeout, request.Aborted);
        }

        request.Response.StatusCode = StatusCodes.Status201Created;
        await JsonResponse.WriteAsync(request.Response, (commands, outcome), WriteResults, request.Aborted);
    }

    private async Task<BatchOutcome> RunAsync(Database database, List<BulkCommand> commands, CancellationToken cancellationToken)
    {
        if (BatchPatchRunner.HasPatches(commands))
        {
            using var runner = new BatchPatchRunner(commands, _options);
            return await runner.RunAsync(database, cancellationToken);
        }

        // An empty batch would still cost a commit and an fsync for nothing.
        if (commands.Count == 0)
            return BatchOutcome.ForWrites([]);
        var writes = new DocumentCommand[commands.Count];
        for (int i = 0; i < writes.Length; i++)
            writes[i] = commands[i].Write!;
        return BatchOutcome.ForWrites(await database.Store.BatchAsync(writes));
    }

    /// <summary>
    /// Returns once every index over a collection the batch wrote to has indexed the batch; a timeout
    /// answers 504 (the batch itself is committed, so a client must not simply retry it).
    /// </summary>
    private static async Task WaitForIndexesAsync(Database database, IReadOnlyList<WriteResult?> results, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var collections = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        long lastEtag = 0;
        foreach (var result in results)
        {
            if (result is null)
                continue;
            collections.Add(result.Collection);
            lastEtag = Math.Max(lastEtag, result.Etag);
        }
        var deadline = DateTime.UtcNow + timeout;
        foreach (var index in database.Indexes.All)
        {
            if (!Covers(index.Definition.Collections, collections))
                continue;
            var remaining = deadline - DateTime.UtcNow;
            if (remaining < TimeSpan.Zero || !await index.WaitForEtagAsync(lastEtag, remaining, cancellationToken))
            {
                throw new FolioHttpException(
                    StatusCodes.Status504GatewayTimeout,
                    "Indexes did not catch up",
                    $"The batch is committed (up to etag {lastEtag}), but Folio could not verify that index '{index.Name}' indexed it within {timeout}.",
                    ProblemTypes.IndexesTimeout);
            }
        }
    }

    private static bool Covers(IReadOnlyList<string> indexed, HashSet<string> written)
    {
        foreach (var collection in indexed)
        {
            if (written.Contains(collection))
                return true;
        }
        return false;
    }

    private static void WriteResults(Utf8JsonWriter writer, (List<BulkCommand> Commands, BatchOutcome Outcome) batch)
    {
        writer.WriteStartObject();
        writer.WriteStartArray("Results"u8);
        for (int i = 0; i < batch.Commands.Count; i++)
        {
            if (batch.Commands[i].Write is { } write)
                WriteResult(writer, write, batch.Outcome.Results[i]);
            else
                WritePatchResult(writer, batch.Commands[i].Patch!, batch.Outcome, i);
        }
        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>Writes the result of a PUT or DELETE command.</summary>
    internal static void WriteResult(Utf8JsonWriter writer, DocumentCommand command, WriteResult? result)
    {
        writer.WriteStartObject();
        if (command.Type == DocumentCommandType.Delete)
        {
            writer.WriteString("Type"u8, "DELETE"u8);
            writer.WriteString("@id"u8, result?.Id ?? command.Id);
            // The seeds' system's clients read the deleted id as "Id".
            writer.WriteString("Id"u8, result?.Id ?? command.Id);
            writer.WriteBoolean("Deleted"u8, result is not null);
        }
        else
        {
            writer.WriteString("Type"u8, "PUT"u8);
            writer.WriteString("@id"u8, result!.Id);
            writer.WriteString("@collection"u8, result.Collection);
            writer.WriteString("@change-vector"u8, result.ChangeVector);
            WriteDate(writer, result.LastModified);
        }

        writer.WriteEndObject();
    }

    private static void WritePatchResult(Utf8JsonWriter writer, BatchPatch patch, BatchOutcome outcome, int index)
    {
        var result = outcome.Results[index];
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "PATCH"u8);
        writer.WriteString("Id"u8, patch.Id);
        writer.WriteString("ChangeVector"u8, result?.ChangeVector ?? outcome.ChangeVectors[index]);
        writer.WriteString("PatchStatus"u8, outcome.Statuses[index].ToString());
        if (result is not null)
        {
            WriteDate(writer, result.LastModified, "LastModified"u8);
            if (patch.ReturnDocument && outcome.Documents[index] is { } document)
            {
                writer.WritePropertyName("ModifiedDocument"u8);
                writer.WriteRawValue(document, skipInputValidation: true);
            }
        }
        writer.WriteEndObject();
    }

    private static void WriteDate(Utf8JsonWriter writer, DateTime lastModified) => WriteDate(writer, lastModified, "@last-modified"u8);

    private static void WriteDate(Utf8JsonWriter writer, DateTime lastModified, ReadOnlySpan<byte> name)
    {
        // The same round-trip format the store writes into @metadata, so both read alike.
        Span<byte> date = stackalloc byte[40];
        Utf8Formatter.TryFormat(lastModified, date, out int written, new System.Buffers.StandardFormat('O'));
        writer.WriteString(name, date[..written]);
    }
}
