using System.Text.Json;
using Folio.Server.Configuration;

namespace Folio.Server.Http;

/// <summary>Reads a request body as JSON within the configured size and depth limits.</summary>
public static class JsonBody
{
    /// <summary>
    /// Parses the whole body. Malformed or too-deep JSON throws <see cref="JsonException"/>, which the
    /// dispatcher answers with 400; a declared length over the document limit is refused before reading, and a
    /// chunked body as soon as it passes the limit.
    /// </summary>
    /// <param name="request">The request whose body to parse.</param>
    /// <param name="options">Supplies <see cref="ServerOptions.MaxJsonDepth"/> and <see cref="ServerOptions.MaxDocumentSizeBytes"/>.</param>
    /// <param name="cancellationToken">Cancels the read when the client goes away.</param>
    /// <returns>The parsed document; the caller disposes it to return its pooled buffers.</returns>
    /// <exception cref="FolioHttpException">413 when the body exceeds the document limit.</exception>
    public static async Task<JsonDocument> ParseAsync(HttpRequest request, ServerOptions options, CancellationToken cancellationToken)
    {
        long? length = request.ContentLength;
        if (length > options.MaxDocumentSizeBytes)
        {
            throw new FolioHttpException(
                StatusCodes.Status413PayloadTooLarge,
                "Request too large",
                $"The body is {length} bytes; the limit is {options.MaxDocumentSizeBytes} bytes.",
                ProblemTypes.TooLarge);
        }

        var parseOptions = new JsonDocumentOptions
        {
            MaxDepth = options.MaxJsonDepth,
            CommentHandling = JsonCommentHandling.Disallow,
            AllowTrailingCommas = false,
        };
        Stream body = length is null ? new LimitedBodyStream(request.Body, options.MaxDocumentSizeBytes) : request.Body;
        return await JsonDocument.ParseAsync(body, parseOptions, cancellationToken);
    }
}
