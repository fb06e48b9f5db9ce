using System.Text.Encodings.Web;
using System.Text.Json;

namespace Folio.Server.Http;

/// <summary>Writes <see cref="Problem"/>s as <c>application/problem+json</c>.</summary>
public static class ProblemWriter
{
    /// <summary>Media type of problem answers.</summary>
    public const string ContentType = "application/problem+json";

    // The body is JSON for API clients, never embedded in HTML, so quotes and angle brackets in a
    // detail (paths, ids) need not be \u-escaped.
    private static readonly JsonWriterOptions s_writerOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>Sets the status and content type and writes the problem as the whole response body (in the seeds' clients' terms too for their requests: <see cref="RavenProtocol.RavenClientErrors"/>).</summary>
    /// <param name="response">A response that has not started.</param>
    /// <param name="problem">What to report.</param>
    /// <param name="cancellationToken">Cancels the flush when the client goes away.</param>
    /// <returns>A task that completes once the body is flushed.</returns>
    public static async Task WriteAsync(HttpResponse response, Problem problem, CancellationToken cancellationToken)
    {
        bool ravenClient = RavenProtocol.RavenClientErrors.IsRavenClient(response.HttpContext.Request);
        response.StatusCode = ravenClient ? RavenProtocol.RavenClientErrors.Status(problem, response.HttpContext.Request) : problem.Status;
        if (ravenClient)
            RavenProtocol.RavenClientErrors.SetHeaders(response, problem);
        response.ContentType = ContentType;
        Serialize(response.BodyWriter, problem, ravenClient);
        await response.BodyWriter.FlushAsync(cancellationToken);
    }

    private static void Serialize(System.Buffers.IBufferWriter<byte> output, Problem problem, bool ravenClient)
    {
        using var writer = new Utf8JsonWriter(output, s_writerOptions);
        writer.WriteStartObject();
        writer.WriteString("type"u8, problem.Type);
        writer.WriteString("title"u8, problem.Title);
        writer.WriteNumber("status"u8, problem.Status);
        if (problem.Detail is not null)
            writer.WriteString("detail"u8, problem.Detail);
        if (ravenClient)
            RavenProtocol.RavenClientErrors.WriteMembers(writer, problem);
        writer.WriteEndObject();
    }
}
