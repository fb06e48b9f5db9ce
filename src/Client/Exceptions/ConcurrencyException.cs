using System.Net;

namespace Folio.Client.Exceptions;

/// <summary>A write named a change vector the stored document no longer has (409 <c>concurrency-conflict</c>); nothing was written.</summary>
public sealed class ConcurrencyException : FolioException
{
    /// <summary>Creates the exception from the server's problem details.</summary>
    public ConcurrencyException(HttpStatusCode status, string? problemType, string? title, string? detail)
        : base(status, problemType, title, detail)
    {
    }
}
