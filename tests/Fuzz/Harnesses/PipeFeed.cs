using System.Buffers;
using System.IO.Pipelines;

namespace Folio.Fuzz.Harnesses;

/// <summary>A connection's bytes as a pipe holds them: written (and so segmented) a few bytes at a time, then ended.</summary>
internal static class PipeFeed
{
    /// <summary>A reader over <paramref name="body"/>, cut into pieces of <paramref name="piece"/> bytes.</summary>
    public static PipeReader Create(ReadOnlySpan<byte> body, int piece)
    {
        var pipe = new Pipe(new PipeOptions(pauseWriterThreshold: 0, useSynchronizationContext: false));
        for (int offset = 0; offset < body.Length; offset += piece)
        {
            pipe.Writer.Write(body.Slice(offset, Math.Min(piece, body.Length - offset)));
            // Each flush ends a segment, so values and lines cross segment boundaries as they do on a socket.
            pipe.Writer.FlushAsync().AsTask().GetAwaiter().GetResult();
        }

        pipe.Writer.Complete();
        return pipe.Reader;
    }
}
