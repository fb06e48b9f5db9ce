using System.Net;

namespace Folio.Client.Exceptions;

/// <summary>
/// A request the Folio server refused or failed, carrying the server's problem details
/// (<c>application/problem+json</c>: <c>type</c>, <c>title</c>, <c>status</c>, <c>detail</c>).
/// </summary>
public class FolioException : Exception
{
    /// <summary>Creates an exception from a message alone (no server answer behind it).</summary>
    public FolioException(string message, Exception? inner = null) : base(message, inner)
    {
    }

    /// <summary>Creates an exception from the problem details the server answered.</summary>
    public FolioException(HttpStatusCode status, string? problemType, string? title, string? detail)
        : base(Describe(status, title, detail))
    {
        Status = status;
        ProblemType = problemType;
        Title = title;
        Detail = detail;
    }

    /// <summary>The HTTP status the server answered, or 0 when the failure was not an answer.</summary>
    public HttpStatusCode Status { get; }

    /// <summary>The problem's <c>type</c>, e.g. <c>urn:folio:problem:invalid-query</c>; what to switch on.</summary>
    public string? ProblemType { get; }

    /// <summary>The problem's <c>title</c>.</summary>
    public string? Title { get; }

    /// <summary>The problem's <c>detail</c>: what went wrong with this request.</summary>
    public string? Detail { get; }

    private static string Describe(HttpStatusCode status, string? title, string? detail) =>
        detail is null ? $"{(int)status} {title}" : $"{(int)status} {title}: {detail}";
}
