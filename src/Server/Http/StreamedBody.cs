using Microsoft.AspNetCore.Http.Features;

namespace Folio.Server.Http;

/// <summary>What the endpoints that take a stream as long as the client's data (bulk insert, import) share.</summary>
public static class StreamedBody
{
    /// <summary>Lifts Kestrel's request body limit: memory is bounded by batching, not by the body's size.</summary>
    /// <param name="context">The request.</param>
    public static void AllowAnyLength(HttpContext context)
    {
        IHttpMaxRequestBodySizeFeature? limit = context.Features.Get<IHttpMaxRequestBodySizeFeature>();
        if (limit is { IsReadOnly: false })
            limit.MaxRequestBodySize = null;
    }

    /// <summary>Whether the body is gzipped (<c>Content-Encoding: gzip</c>); uncompressed is <c>identity</c> or none.</summary>
    /// <param name="request">The request.</param>
    /// <param name="endpoint">Names the endpoint in the error, e.g. <c>bulk_insert</c>.</param>
    /// <returns>True for gzip.</returns>
    /// <exception cref="FolioHttpException">415 for any other encoding.</exception>
    public static bool IsGzip(HttpRequest request, string endpoint)
    {
        string? encoding = request.Headers.ContentEncoding;
        if (string.IsNullOrEmpty(encoding) || encoding.Equals("identity", StringComparison.OrdinalIgnoreCase))
            return false;
        if (encoding.Equals("gzip", StringComparison.OrdinalIgnoreCase))
            return true;
        throw new FolioHttpException(
            StatusCodes.Status415UnsupportedMediaType,
            "Unsupported content encoding",
            $"{endpoint} accepts a body in gzip or uncompressed, not '{encoding}'.",
            ProblemTypes.BadRequest);
    }
}
