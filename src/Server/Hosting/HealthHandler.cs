using Folio.Server.Routing;

namespace Folio.Server.Hosting;

/// <summary>Answers liveness probes; it touches no database so it stays cheap and says only that the process serves.</summary>
public sealed class HealthHandler
{
    private static readonly ReadOnlyMemory<byte> s_ok = "ok"u8.ToArray();

    /// <summary>Answers 200 with the body <c>ok</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the body is written.</returns>
    [FolioRoute("GET", "/healthz")]
    public ValueTask GetHealth(FolioRequest request)
    {
        HttpResponse response = request.Response;
        response.ContentType = "text/plain; charset=utf-8";
        response.ContentLength = s_ok.Length;
        return response.Body.WriteAsync(s_ok, request.Aborted);
    }
}
