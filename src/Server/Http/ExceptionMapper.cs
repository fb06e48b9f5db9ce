using Folio.Indexing.Definitions;
using Folio.Indexing.Querying;
using Folio.Indexing.Rql;
using System.Text.Json;
using Folio.Storage;
using Folio.Storage.Documents;

namespace Folio.Server.Http;

/// <summary>Turns an exception escaping a handler into the problem the client sees.</summary>
public static class ExceptionMapper
{
    /// <summary>
    /// Maps known exceptions to their status; anything else becomes a 500 whose detail names only the
    /// trace id, because exception messages and stack traces may expose internals.
    /// </summary>
    /// <param name="exception">What the handler threw.</param>
    /// <param name="traceId">The request's trace identifier, to find the logged exception.</param>
    /// <returns>The problem to answer with.</returns>
    public static Problem ToProblem(Exception exception, string traceId)
    {
        // A full disk is the operator's actionable cause even when the storage wrapped it (a failed
        // journal write fails the environment), so it wins over the wrapper.
        if (Folio.Storage.DiskFullException.IsCause(exception))
        {
            return new Problem(
                StatusCodes.Status507InsufficientStorage,
                "Insufficient storage",
                $"The disk holding the database is full; nothing more can be written until space is freed (trace id {traceId}).",
                ProblemTypes.InsufficientStorage);
        }

        switch (exception)
        {
            case FolioHttpException folio:
                return new Problem(folio.StatusCode, folio.Title, folio.Detail, folio.Type);
            case JsonException json:
                return new Problem(StatusCodes.Status400BadRequest, "Malformed JSON", json.Message, ProblemTypes.MalformedJson);
            case InvalidOperationException { InnerException: System.Text.DecoderFallbackException }:
                // The JSON reader checks a body's structure as it parses, but the UTF-8 inside a string only when a
                // handler reads that string: it is still the client's malformed JSON, wherever the handler noticed.
                return new Problem(StatusCodes.Status400BadRequest, "Malformed JSON", "The body holds a string that is not valid UTF-8.", ProblemTypes.MalformedJson);
            case InvalidOperationException unreadable when IsReadingAString(unreadable):
                // Likewise an escaped half of a surrogate pair ("\ud800"): well-formed JSON, but no string can hold it.
                return new Problem(StatusCodes.Status400BadRequest, "Malformed JSON", "The body holds a string that is not valid Unicode (an escaped unpaired surrogate).", ProblemTypes.MalformedJson);
            case BadHttpRequestException bad when bad.StatusCode == StatusCodes.Status413PayloadTooLarge:
                return new Problem(bad.StatusCode, "Request too large", bad.Message, ProblemTypes.TooLarge);
            case BadHttpRequestException bad:
                return new Problem(bad.StatusCode, "Bad request", bad.Message, ProblemTypes.BadRequest);
            case DocumentValidationException invalid:
                return new Problem(StatusCodes.Status400BadRequest, "Invalid document", invalid.Message, ProblemTypes.InvalidDocument);
            case ClusterTransactionConflictException cluster:
                return new Problem(StatusCodes.Status409Conflict, "Cluster transaction conflict", cluster.Message, ProblemTypes.ClusterTransactionConflict);
            case ConcurrencyException conflict:
                // The storage's message names the id, the expected and the actual change vector.
                return new Problem(StatusCodes.Status409Conflict, "Concurrency conflict", conflict.Message, ProblemTypes.ConcurrencyConflict);
            case RqlParseException parse:
                return new Problem(StatusCodes.Status400BadRequest, "Invalid query", parse.Message, ProblemTypes.InvalidQuery);
            case Indexing.Scripting.ScriptException script when script.IsLimit:
                return new Problem(StatusCodes.Status400BadRequest, "Script limit exceeded", script.Message, ProblemTypes.ScriptLimitExceeded);
            case Indexing.Scripting.ScriptException script:
                return new Problem(StatusCodes.Status400BadRequest, "Script error", script.Message, ProblemTypes.ScriptError);
            case QueryTimeoutException timeout:
                return new Problem(StatusCodes.Status408RequestTimeout, "Query timeout", timeout.Message, ProblemTypes.QueryTimeout);
            case Indexing.Engines.QueryMemoryLimitException memory:
                return new Problem(StatusCodes.Status422UnprocessableEntity, "Query memory limit", memory.Message, ProblemTypes.QueryMemoryLimit);
            case QueryException query:
                return new Problem(StatusCodes.Status400BadRequest, "Invalid query", query.Message, ProblemTypes.InvalidQuery);
            case IndexNotFoundException missing:
                return new Problem(StatusCodes.Status404NotFound, "Index not found", missing.Message, ProblemTypes.IndexNotFound);
            case FieldPathException path:
                // Definitions and include parameters name their own paths' errors; a path error that gets
                // here came from a query's field, so the query is what is invalid.
                return new Problem(StatusCodes.Status400BadRequest, "Invalid query", path.Message, ProblemTypes.InvalidQuery);
            case Subscriptions.SubscriptionException subscription:
                return subscription.Code switch
                {
                    "NotFound" => new Problem(StatusCodes.Status404NotFound, "Subscription not found", subscription.Message, ProblemTypes.SubscriptionNotFound),
                    "Exists" => new Problem(StatusCodes.Status409Conflict, "Subscription exists", subscription.Message, ProblemTypes.SubscriptionExists),
                    _ => new Problem(StatusCodes.Status400BadRequest, "Invalid subscription", subscription.Message, ProblemTypes.InvalidSubscription),
                };
            case IndexDefinitionException definition:
                return new Problem(StatusCodes.Status400BadRequest, "Invalid index definition", definition.Message, ProblemTypes.InvalidIndexDefinition);
            case EnvironmentFailedException:
                return new Problem(
                    StatusCodes.Status500InternalServerError,
                    "Database refuses writes",
                    $"The database's storage failed a write or sync and refuses writes until the server restarts; its log has the details under trace id {traceId}.",
                    ProblemTypes.StorageFailed);
            case Storage.StorageLockedException:
                return new Problem(
                    StatusCodes.Status503ServiceUnavailable,
                    "Files in use",
                    $"The database's files are in use by another process: a server that has not finished stopping, or a second server on the same data directory. Try again once it has let go; the log names the directory under trace id {traceId}.",
                    ProblemTypes.FilesInUse);
            case ObjectDisposedException:
                // A database or index went away (deleted, replaced, shut down) while the request used it.
                return new Problem(
                    StatusCodes.Status503ServiceUnavailable,
                    "Closed while in use",
                    $"The database or index this request used was deleted, replaced or shut down while it ran; try again (trace id {traceId}).",
                    ProblemTypes.Closed);
            default:
                return new Problem(
                    StatusCodes.Status500InternalServerError,
                    "Internal server error",
                    $"The server failed to process the request; its log has the details under trace id {traceId}.",
                    ProblemTypes.InternalError);
        }
    }

    /// <summary>Whether the exception came from reading a parsed body's string, rather than from a server bug in writing JSON.</summary>
    private static bool IsReadingAString(InvalidOperationException exception)
    {
        foreach (System.Diagnostics.StackFrame frame in new System.Diagnostics.StackTrace(exception).GetFrames())
        {
            // The reader's unescaping is internal: known by name, as it shows in the trace (the public getters above it may be inlined).
            if (frame.GetMethod() is { DeclaringType.FullName: "System.Text.Json.JsonReaderHelper" } method && method.Name.Contains("Unescape", StringComparison.Ordinal))
                return true;
        }
        return false;
    }

    /// <summary>Whether the failure is the server's fault and so belongs in the log as an error.</summary>
    /// <param name="problem">The mapped problem.</param>
    /// <returns>True for 5xx problems.</returns>
    public static bool IsServerFault(Problem problem) => problem.Status >= StatusCodes.Status500InternalServerError;
}
