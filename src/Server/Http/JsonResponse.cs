using System.IO.Pipelines;
using System.Text.Json;

namespace Folio.Server.Http;

/// <summary>
/// Writes a whole JSON answer: sets the content type, rents a pooled writer, lets the caller fill it and
/// hands the writer back. The body comes as a callback with an explicit state instead of a closure, so a
/// <c>static</c> lambda or a static method serves every request without allocating. Answers that stream
/// with flushes along the way rent from <see cref="JsonWriters"/> themselves.
/// </summary>
public static class JsonResponse
{
    /// <summary>
    /// Writes the body into the response's pipe without flushing it: for answers written under a database
    /// lease or snapshot, which are released before the flush waits on the client.
    /// </summary>
    /// <typeparam name="TState">What the body is written from.</typeparam>
    /// <param name="response">A response that has not started its body.</param>
    /// <param name="state">Passed to <paramref name="write"/>.</param>
    /// <param name="write">Writes one JSON value; it must not keep the writer.</param>
    public static void Write<TState>(HttpResponse response, TState state, Action<Utf8JsonWriter, TState> write)
    {
        response.ContentType = JsonWriters.ContentType;
        Utf8JsonWriter writer = JsonWriters.Rent(response.BodyWriter);
        write(writer, state);
        JsonWriters.Return(writer);
    }

    /// <summary>Writes the body, as <see cref="Write"/> does, and flushes it to the client.</summary>
    /// <typeparam name="TState">What the body is written from.</typeparam>
    /// <param name="response">A response that has not started its body.</param>
    /// <param name="state">Passed to <paramref name="write"/>.</param>
    /// <param name="write">Writes one JSON value; it must not keep the writer.</param>
    /// <param name="cancellationToken">Cancels the flush when the client goes away.</param>
    /// <returns>The pipe's flush, returned as is so a flush that completes at once costs no task.</returns>
    public static ValueTask<FlushResult> WriteAsync<TState>(HttpResponse response, TState state, Action<Utf8JsonWriter, TState> write, CancellationToken cancellationToken)
    {
        Write(response, state, write);
        return response.BodyWriter.FlushAsync(cancellationToken);
    }
}
