namespace Folio.Server.Monitoring;

/// <summary>
/// Marks a request that is a feed or a stream rather than a question: a long poll, a continuous changes feed,
/// a WebSocket, a bulk insert. Such a request lasts as long as its client wants, so counting its duration as
/// latency would turn the percentiles into a measure of how long feeds stay open.
/// </summary>
public sealed class LongRunningRequest
{
    private static readonly LongRunningRequest s_instance = new();

    private LongRunningRequest()
    {
    }

    /// <summary>Keeps <paramref name="context"/>'s duration out of the latency figures.</summary>
    /// <param name="context">The request.</param>
    public static void Mark(HttpContext context) => context.Features.Set(s_instance);

    /// <summary>Whether <see cref="Mark"/> was called for <paramref name="context"/>.</summary>
    /// <param name="context">The request.</param>
    /// <returns>True for a feed or stream.</returns>
    public static bool IsMarked(HttpContext context) => context.Features.Get<LongRunningRequest>() is not null;
}
