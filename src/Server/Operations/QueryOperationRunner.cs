using System.Diagnostics;
using System.Text.Json;
using Folio.Indexing.Patching;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using Folio.Indexing.Scripting;
using Folio.Server.Configuration;
using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Storage.Documents;

namespace Folio.Server.Operations;

/// <summary>
/// Runs a patch or delete by query in the background: it takes the ids of every selected document from one snapshot,
/// then works through them in batches of at most <see cref="BatchSize"/> documents, each batch read, patched (outside
/// any write transaction) and written through the merger as a transaction of its own, on the condition that each
/// document is still the version the script read. Other writers keep going between batches; a batch that lost a race
/// is patched again from the newer versions. Committed batches stay whatever happens after them.
/// </summary>
internal sealed class QueryOperationRunner(Database database, DatabaseOperation operation, RqlQuery query, JsonElement? parameters, ServerOptions options, ILogger logger)
{
    /// <summary>Documents per batch (per write transaction).</summary>
    public const int BatchSize = 1024;

    // A batch whose documents other writers changed this many times in a row fails the operation.
    private const int Attempts = 16;

    /// <summary>Starts the run on the thread pool; the operation's state tells how it went.</summary>
    public void Start() => _ = Task.Run(RunAsync);

    private async Task RunAsync()
    {
        var started = Stopwatch.GetTimestamp();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(operation.Killed, database.Closing);
        DocumentPatcher? patcher = null;
        var status = OperationStatus.Completed;
        string? error = null;
        string? errorType = null;
        try
        {
            var ids = await MatchAsync(stop.Token);
            operation.SetTotal(ids.Count);
            OperationLog.Started(logger, operation.Id, operation.Kind, database.Name, ids.Count);
            Record();
            if (operation.Kind == OperationKind.PatchByQuery)
                patcher = DocumentPatcher.ForQuery(query, parameters, options.Scripting.ToLimits(), options.MaxJsonDepth, stop.Token);
            for (var start = 0; start < ids.Count; start += BatchSize)
            {
                stop.Token.ThrowIfCancellationRequested();
                var end = Math.Min(start + BatchSize, ids.Count);
                if (!database.TryEnter())
                    throw new OperationCanceledException(database.Closing);
                try
                {
                    await WriteBatchAsync(ids, start, end, patcher);
                }
                finally
                {
                    database.Exit();
                }
                operation.AddProcessed(end - start);
                Record();
            }
        }
        catch (Exception e) when (operation.Killed.IsCancellationRequested && IsCancellation(e))
        {
            status = OperationStatus.Cancelled;
            error = "Cancelled by operations/kill; the batches committed before stay.";
        }
        catch (Exception e) when (database.Closing.IsCancellationRequested && IsCancellation(e))
        {
            status = OperationStatus.Interrupted;
            error = "The database closed (server shutdown or database deleted) while the operation ran; the batches committed before stay and the operation is not resumed.";
        }
        catch (DocumentOperationException e)
        {
            status = OperationStatus.Faulted;
            error = e.Message;
            errorType = e.InnerException is ScriptException ? ProblemTypes.ScriptError : ProblemTypes.InvalidDocument;
        }
        catch (Exception e) when (e is QueryException or RqlParseException or ScriptException or IndexNotFoundException or TimeoutException)
        {
            status = OperationStatus.Faulted;
            error = e.Message;
            errorType = e switch
            {
                ScriptException => ProblemTypes.ScriptError,
                IndexNotFoundException => ProblemTypes.IndexNotFound,
                TimeoutException => ProblemTypes.QueryTimeout,
                _ => ProblemTypes.InvalidQuery,
            };
        }
        catch (Exception e)
        {
            status = OperationStatus.Faulted;
            error = "The operation failed on the server's side; its log has the details.";
            OperationLog.Failed(logger, e, operation.Id, operation.Kind, database.Name);
        }
        finally
        {
            patcher?.Dispose();
        }
        operation.End(status, error, errorType);
        Record();
        var ended = operation.Snapshot();
        OperationLog.Ended(logger, operation.Id, operation.Kind, database.Name, ended.Status, ended.Processed, ended.Total, Stopwatch.GetElapsedTime(started).TotalMilliseconds, ended.Error);
    }

    private async Task<List<string>> MatchAsync(CancellationToken cancellation)
    {
        if (!database.TryEnter())
            throw new OperationCanceledException(database.Closing);
        try
        {
            // The operation waits for its index to catch up with the writes before it: it runs in the background
            // and patching what a stale index selected would miss documents the client meant.
            var queryOptions = new QueryOptions
            {
                Parameters = parameters,
                WaitForNonStaleResults = true,
                WaitTimeout = TimeSpan.FromMinutes(1),
                ScriptLimits = options.Scripting.ToLimits(),
            };
            return await database.Queries.MatchingIdsAsync(query, queryOptions, cancellation);
        }
        finally
        {
            database.Exit();
        }
    }

    private async Task WriteBatchAsync(List<string> ids, int start, int end, DocumentPatcher? patcher)
    {
        for (var attempt = 1; ; attempt++)
        {
            var commands = Prepare(ids, start, end, patcher);
            if (commands.Count == 0)
                return;
            try
            {
                await database.Store.BatchAsync(commands);
                return;
            }
            catch (ConcurrencyException) when (attempt < Attempts)
            {
                // Another writer changed one of the batch's documents after it was read: read and patch them again,
                // after a pause that grows with the attempts.
                await Task.Delay(Random.Shared.Next(1, 2 + (4 * attempt)));
            }
        }
    }

    private List<DocumentCommand> Prepare(List<string> ids, int start, int end, DocumentPatcher? patcher)
    {
        var commands = new List<DocumentCommand>(end - start);
        using var reader = database.Store.OpenReader();
        for (var i = start; i < end; i++)
        {
            // A document deleted since the query selected it is skipped.
            if (!reader.TryGet(ids[i], out var document))
                continue;
            var version = ChangeVector.ToString(document.Etag, database.DatabaseIdBytes);
            if (patcher is null)
            {
                commands.Add(new DocumentCommand(DocumentCommandType.Delete, ids[i], null, version));
                continue;
            }
            try
            {
                var patched = PreparedDocument.Parse(patcher.Apply(document.Json, reader), options.MaxJsonDepth);
                commands.Add(new DocumentCommand(DocumentCommandType.Put, ids[i], patched, version));
            }
            catch (ScriptException e) when (e.Failure != ScriptFailure.Canceled)
            {
                throw new DocumentOperationException($"The patch failed on document '{ids[i]}', so the operation stopped; the batches before it stay committed. {e.Message}", e);
            }
            catch (DocumentValidationException e)
            {
                throw new DocumentOperationException($"The patch made document '{ids[i]}' invalid, so the operation stopped; the batches before it stay committed. {e.Message}", e);
            }
        }
        return commands;
    }

    private void Record()
    {
        try
        {
            database.Operations.Save();
        }
        catch (IOException e)
        {
            OperationLog.SaveFailed(logger, e, database.Name);
        }
        catch (UnauthorizedAccessException e)
        {
            OperationLog.SaveFailed(logger, e, database.Name);
        }
    }

    private static bool IsCancellation(Exception e) =>
        e is OperationCanceledException || (e is ScriptException script && script.Failure == ScriptFailure.Canceled);

    /// <summary>One document stopped the operation (its script failed, or made it invalid).</summary>
    private sealed class DocumentOperationException(string message, Exception inner) : Exception(message, inner);
}
