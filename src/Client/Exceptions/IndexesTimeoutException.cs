using System.Net;

namespace Folio.Client.Exceptions;

/// <summary>
/// The writes were committed, but an index had not caught up with them within the wait asked for
/// (504 <c>indexes-timeout</c>). Do not simply save again: the changes are stored.
/// </summary>
public sealed class IndexesTimeoutException : FolioException
{
    /// <summary>Creates the exception from the server's problem details.</summary>
    public IndexesTimeoutException(HttpStatusCode status, string? problemType, string? title, string? detail)
        : base(status, problemType, title, detail)
    {
    }
}
