using Folio.Server.Http;
using Folio.Storage.Documents;

namespace Folio.Server.Documents;

/// <summary>Checks ids from requests before anything touches the store, answering 400 problems.</summary>
public static class DocumentIdRules
{
    /// <summary>Throws a 400 problem unless the id is one the store accepts.</summary>
    /// <param name="id">The id from the query string or a command.</param>
    /// <exception cref="FolioHttpException">400 naming what is wrong with the id.</exception>
    public static void Validate(string id)
    {
        try
        {
            DocumentIds.Validate(id);
        }
        catch (DocumentValidationException e)
        {
            throw new FolioHttpException(StatusCodes.Status400BadRequest, "Invalid document id", e.Message, ProblemTypes.InvalidDocumentId);
        }
    }
}
