using Folio.Server.Http;

namespace Folio.Server.Documents;

/// <summary>The <c>start</c> and <c>pageSize</c> of a listing, with the page size held to the server's cap.</summary>
/// <param name="Start">How many documents to skip.</param>
/// <param name="PageSize">How many to return at most (after capping).</param>
/// <param name="Capped">Whether the client asked for more than the cap.</param>
public readonly record struct PageRequest(int Start, int PageSize, bool Capped)
{
    /// <summary>Name of the response header set when the page size was capped; its value is the cap.</summary>
    public const string CappedHeader = "Folio-Page-Size-Capped";

    /// <summary>Reads <c>start</c> (default 0) and <c>pageSize</c> (default: the cap).</summary>
    /// <param name="request">The request.</param>
    /// <param name="maxPageSize">The server's cap.</param>
    /// <returns>The page to serve.</returns>
    /// <exception cref="FolioHttpException">400 for a negative, non-numeric or out-of-range value.</exception>
    public static PageRequest Parse(HttpRequest request, int maxPageSize)
    {
        int start = QueryParameters.NonNegativeInt32(request, "start", 0);
        int asked = QueryParameters.NonNegativeInt32(request, "pageSize", maxPageSize);
        return asked > maxPageSize ? new PageRequest(start, maxPageSize, Capped: true) : new PageRequest(start, asked, Capped: false);
    }
}
