using System.Text.Json;

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
        switch (exception)
        {
            case FolioHttpException folio:
                return new Problem(folio.StatusCode, folio.Title, folio.Detail, folio.Type);
            case JsonException json:
                return new Problem(StatusCodes.Status400BadRequest, "Malformed JSON", json.Message, ProblemTypes.MalformedJson);
            case BadHttpRequestException bad when bad.StatusCode == StatusCodes.Status413PayloadTooLarge:
                return new Problem(bad.StatusCode, "Request too large", bad.Message, ProblemTypes.TooLarge);
            case BadHttpRequestException bad:
                return new Problem(bad.StatusCode, "Bad request", bad.Message, ProblemTypes.BadRequest);
            default:
                return new Problem(
                    StatusCodes.Status500InternalServerError,
                    "Internal server error",
                    $"The server failed to process the request; its log has the details under trace id {traceId}.",
                    ProblemTypes.InternalError);
        }
    }

    /// <summary>Whether the failure is the server's fault and so belongs in the log as an error.</summary>
    /// <param name="problem">The mapped problem.</param>
    /// <returns>True for 5xx problems.</returns>
    public static bool IsServerFault(Problem problem) => problem.Status >= StatusCodes.Status500InternalServerError;
}
