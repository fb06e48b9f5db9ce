using System.Text.Json;
using Folio.Server.Documents;
using Folio.Server.Http;

namespace Folio.Fuzz.Harnesses;

/// <summary>
/// The <c>bulk_docs</c> body reader (<see cref="BulkDocsParser.Parse"/>): it refuses with
/// <see cref="FolioHttpException"/> (400 or 413) or <see cref="JsonException"/>, both answered as problems; any other
/// exception would be a 500.
/// </summary>
public static class BulkDocsHarness
{
    /// <summary>Runs one input.</summary>
    public static void Run(byte[] input)
    {
        try
        {
            BulkDocsParser.Parse(input, maxDepth: 32, maxDocumentBytes: 64 * 1024);
        }
        catch (FolioHttpException e) when (e.StatusCode is 400 or 413)
        {
        }
        catch (JsonException)
        {
        }
    }
}
