using Folio.Server.Databases;
using Folio.Server.Http;
using Folio.Server.Routing;

namespace Folio.Server.Hosting;

/// <summary>
/// Answers probes: liveness (<c>/healthz</c>, <c>/healthz/live</c>) touches no database, so it stays cheap and says
/// only that the process serves; readiness (<c>/healthz/ready</c>) also says every loaded database accepts writes. The
/// catalog of databases is read before the server listens and databases open on their first request, so a server
/// that answers is ready however many databases it holds.
/// </summary>
public sealed class HealthHandler
{
    private static readonly ReadOnlyMemory<byte> s_ok = "ok"u8.ToArray();
    private readonly DatabaseRegistry _databases;

    /// <summary>Creates the handler.</summary>
    /// <param name="databases">Checked for failed databases by the readiness probe.</param>
    public HealthHandler(DatabaseRegistry databases)
    {
        _databases = databases;
    }

    /// <summary>Answers 200 with the body <c>ok</c>.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the body is written.</returns>
    [FolioRoute("GET", "/healthz", Access = RouteAccess.Public)]
    [FolioRoute("GET", "/healthz/live", Access = RouteAccess.Public)]
    public ValueTask GetHealth(FolioRequest request) => WriteOk(request);

    /// <summary>
    /// Answers 200 <c>ok</c> when every loaded database accepts writes, else 503 problem+json naming the databases whose
    /// storage failed a write or sync (they keep serving reads; a restart recovers them from the journal).
    /// </summary>
    /// <param name="request">The request.</param>
    /// <returns>Completes when the answer is written.</returns>
    [FolioRoute("GET", "/healthz/ready", Access = RouteAccess.Public)]
    public ValueTask GetReadiness(FolioRequest request)
    {
        List<string>? failed = null;
        foreach (DatabaseEntry entry in _databases.List())
        {
            if (entry.Loaded is { } database && database.Store.Environment.Failure is not null)
                (failed ??= []).Add(database.Name);
        }

        if (failed is null)
            return WriteOk(request);
        var problem = new Problem(
            StatusCodes.Status503ServiceUnavailable,
            "Not ready",
            $"These databases refuse writes after a failed write or sync: {string.Join(", ", failed)}. Reads still work; the log has the cause; a restart recovers them.",
            ProblemTypes.NotReady);
        return new ValueTask(ProblemWriter.WriteAsync(request.Response, problem, request.Aborted));
    }

    private static ValueTask WriteOk(FolioRequest request)
    {
        HttpResponse response = request.Response;
        response.ContentType = "text/plain; charset=utf-8";
        response.ContentLength = s_ok.Length;
        return response.Body.WriteAsync(s_ok, request.Aborted);
    }
}
