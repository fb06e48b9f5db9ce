using System.Buffers;
using System.Text.Encodings.Web;
using System.Text.Json;

namespace Folio.Server.Http;

/// <summary>
/// Reuses <see cref="Utf8JsonWriter"/>s, one parked per thread, so writing a response allocates no
/// writer. A rented writer may cross awaits and be returned on another thread; one that is never
/// returned (a failed request) is simply collected.
/// </summary>
public static class JsonWriters
{
    /// <summary>Media type of Folio's JSON answers.</summary>
    public const string ContentType = "application/json; charset=utf-8";

    // Responses are JSON for API clients, never embedded in HTML, so ids with quotes or angle brackets
    // need not be \u-escaped; validation stays on to catch a handler that writes malformed structure.
    private static readonly JsonWriterOptions s_options = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    [ThreadStatic]
    private static Utf8JsonWriter? t_parked;

    /// <summary>A writer over <paramref name="output"/>.</summary>
    /// <param name="output">Where the JSON goes, e.g. <c>HttpResponse.BodyWriter</c>.</param>
    /// <returns>The writer; hand it back with <see cref="Return"/> after its last <c>Flush</c>.</returns>
    public static Utf8JsonWriter Rent(IBufferWriter<byte> output)
    {
        Utf8JsonWriter? writer = t_parked;
        if (writer is null)
            return new Utf8JsonWriter(output, s_options);
        t_parked = null;
        writer.Reset(output);
        return writer;
    }

    /// <summary>Flushes the writer into its output and parks it for reuse.</summary>
    /// <param name="writer">A writer from <see cref="Rent"/>; the caller must not use it afterwards.</param>
    public static void Return(Utf8JsonWriter writer)
    {
        writer.Flush();
        // Detach from the response so a parked writer keeps no request's pipe alive.
        writer.Reset(NullBufferWriter.Instance);
        t_parked = writer;
    }

    private sealed class NullBufferWriter : IBufferWriter<byte>
    {
        public static readonly NullBufferWriter Instance = new();

        public void Advance(int count)
        {
        }

        public Memory<byte> GetMemory(int sizeHint = 0) => Memory<byte>.Empty;

        public Span<byte> GetSpan(int sizeHint = 0) => Span<byte>.Empty;
    }
}
