namespace Folio.Server.Http;

/// <summary>
/// Thrown by handlers to end a request with a problem+json answer of a chosen status; the dispatcher
/// turns it into the response, so handlers never write error bodies themselves.
/// </summary>
public sealed class FolioHttpException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="statusCode">HTTP status to answer with, e.g. 400 or 409.</param>
    /// <param name="title">Short, fixed summary of the kind of problem.</param>
    /// <param name="detail">What went wrong with this request; shown to the client.</param>
    /// <param name="type">URI naming the problem kind; <see cref="ProblemTypes.Generic"/> when omitted.</param>
    public FolioHttpException(int statusCode, string title, string? detail = null, string? type = null)
        : base(detail ?? title)
    {
        if (statusCode is < 400 or > 599)
            throw new ArgumentOutOfRangeException(nameof(statusCode), statusCode, "A problem needs a 4xx or 5xx status.");
        StatusCode = statusCode;
        Title = title;
        Detail = detail;
        Type = type ?? ProblemTypes.Generic;
    }

    /// <summary>HTTP status of the answer.</summary>
    public int StatusCode { get; }

    /// <summary>Short summary of the kind of problem.</summary>
    public string Title { get; }

    /// <summary>What went wrong with this request, if known.</summary>
    public string? Detail { get; }

    /// <summary>URI naming the problem kind.</summary>
    public string Type { get; }
}
