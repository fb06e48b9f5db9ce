using System.IO.Pipelines;
using Microsoft.Net.Http.Headers;

namespace Folio.Server.Http;

/// <summary>
/// What happens to the rest of a body the server refused (413, or a stream stopped by a bad command) before the
/// answer goes out. A client that sends its whole body without <c>Expect: 100-continue</c> writes on while the
/// server answers; if the server then closed with unread bytes, the client's kernel would get a reset and could
/// drop the answer it already received. Reading and dropping the rest, within a bound, lets it read the answer.
/// </summary>
public static class RefusedBody
{
    /// <summary>
    /// Reads and drops what is left of the request body, at most <paramref name="maxBytes"/> bytes and for at most
    /// <paramref name="timeout"/>. When the body cannot be drained whole (larger than the bound, too slow, already
    /// broken), the answer carries <c>Connection: close</c> so Kestrel does not try to read the next request from it.
    /// </summary>
    /// <param name="context">The request, whose response has not started.</param>
    /// <param name="maxBytes">Most bytes read and dropped.</param>
    /// <param name="timeout">Longest time spent.</param>
    /// <returns>Whether the body was read to its end.</returns>
    public static async Task<bool> DrainAsync(HttpContext context, long maxBytes, TimeSpan timeout)
    {
        HttpRequest request = context.Request;
        long? declared = request.ContentLength;
        // A client waiting for 100 Continue has sent nothing yet; reading would ask it for the body being refused.
        bool awaitsContinue = declared is not null && request.Headers.Expect.ToString().Contains("100-continue", StringComparison.OrdinalIgnoreCase);
        if (awaitsContinue || declared > maxBytes || maxBytes == 0 || timeout == TimeSpan.Zero)
        {
            CloseAfterAnswer(context);
            return false;
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted);
        deadline.CancelAfter(timeout);
        PipeReader body = request.BodyReader;
        long drained = 0;
        try
        {
            while (true)
            {
                ReadResult result = await body.ReadAsync(deadline.Token).ConfigureAwait(false);
                drained += result.Buffer.Length;
                body.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                    return true;
                if (result.IsCanceled || drained > maxBytes)
                    break;
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or BadHttpRequestException or InvalidOperationException)
        {
            // The client went away, was too slow, sent a broken body, or it was already read to its end or failed.
        }

        CloseAfterAnswer(context);
        return false;
    }

    private static void CloseAfterAnswer(HttpContext context)
    {
        if (!context.Response.HasStarted)
            context.Response.Headers[HeaderNames.Connection] = "close";
    }
}
