using Folio.Server.Http;
using Folio.Server.Routing;
using Microsoft.Extensions.Primitives;
using Microsoft.Net.Http.Headers;

namespace Folio.Server.Studio;

/// <summary>
/// Serves the web management studio: the files of the repository's <c>studio/</c> folder embedded in
/// this assembly, at <c>/studio/</c>, with a strong ETag, revalidation on every use (file names carry no
/// version, so a cached copy must be checked) and Brotli or gzip compression made once per process.
/// </summary>
public sealed class StudioHandler
{
    /// <summary>Where the studio lives.</summary>
    public const string Root = "/studio/";

    // The studio loads only its own files and talks only to this server.
    private const string ContentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

    /// <summary>Redirects the server's root to the studio, so a browser pointed at the server lands there.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes at once.</returns>
    [FolioRoute("GET", "/", Access = RouteAccess.Public)]
    public ValueTask GetRoot(FolioRequest request)
    {
        Redirect(request.Response);
        return ValueTask.CompletedTask;
    }

    /// <summary>Answers a studio file, <c>index.html</c> for the folder itself; 304 when <c>If-None-Match</c> names it; 404 for any other path.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the body is written.</returns>
    [FolioRoute("GET", "/studio/{*path}", Access = RouteAccess.Public)]
    public async ValueTask GetFile(FolioRequest request)
    {
        HttpResponse response = request.Response;
        ReadOnlySpan<char> path = request.RouteValue("path");
        if (path.IsEmpty)
        {
            // Relative module URLs in index.html resolve against the folder only when the URL ends in '/'.
            if (!request.Request.Path.Value!.EndsWith('/'))
            {
                Redirect(response);
                return;
            }

            path = "index.html";
        }

        if (!StudioAssets.TryGet(path, out StudioAsset? asset))
        {
            await ProblemWriter.WriteAsync(
                response,
                new Problem(StatusCodes.Status404NotFound, "Studio file not found", $"The studio has no file '{path}'.", ProblemTypes.StudioFileNotFound),
                request.Aborted);
            return;
        }

        IHeaderDictionary headers = response.Headers;
        headers.ETag = asset.ETag;
        headers.CacheControl = "no-cache";
        headers.Vary = HeaderNames.AcceptEncoding;
        headers.XContentTypeOptions = "nosniff";
        headers.ContentSecurityPolicy = ContentSecurityPolicy;
        if (Matches(request.Request.Headers.IfNoneMatch, asset.ETag))
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return;
        }

        byte[] body = asset.Identity;
        switch (AcceptEncoding.Choose(request.Request.Headers.AcceptEncoding))
        {
            case StudioEncoding.Brotli when asset.Brotli is not null:
                body = asset.Brotli;
                headers.ContentEncoding = "br";
                break;
            case StudioEncoding.Brotli or StudioEncoding.Gzip when asset.Gzip is not null:
                body = asset.Gzip;
                headers.ContentEncoding = "gzip";
                break;
        }

        response.ContentType = asset.ContentType;
        response.ContentLength = body.Length;
        if (!HttpMethods.IsHead(request.Request.Method))
            await response.Body.WriteAsync(body, request.Aborted);
    }

    private static void Redirect(HttpResponse response)
    {
        response.StatusCode = StatusCodes.Status302Found;
        response.Headers.Location = Root;
        response.Headers.CacheControl = "no-cache";
    }

    // Reads each header line in place: a request that repeats the header is not joined into a new string.
    private static bool Matches(StringValues ifNoneMatch, string etag)
    {
        foreach (string? line in ifNoneMatch)
        {
            ReadOnlySpan<char> value = line;
            foreach (Range part in value.Split(','))
            {
                ReadOnlySpan<char> candidate = value[part].Trim();
                // If-None-Match compares weakly (RFC 9110 13.1.2): a W/ prefix does not prevent a match.
                if (candidate.StartsWith("W/"))
                    candidate = candidate[2..];
                if (candidate.SequenceEqual("*") || candidate.SequenceEqual(etag))
                    return true;
            }
        }

        return false;
    }
}
