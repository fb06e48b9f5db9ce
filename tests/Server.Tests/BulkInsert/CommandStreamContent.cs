using System.IO.Compression;
using System.Net;
using System.Text;

namespace Folio.Server.Tests.BulkInsert;

/// <summary>
/// A bulk insert body made while it is sent: <c>[</c>, the commands, <c>]</c>, chunked (no length), optionally
/// gzip, so a stream of any size costs the test only one write buffer.
/// </summary>
public sealed class CommandStreamContent : HttpContent
{
    private const int FlushAt = 60 * 1024;

    private readonly long _count;
    private readonly Func<long, string> _command;
    private readonly bool _gzip;

    public CommandStreamContent(long count, Func<long, string> command, bool gzip = false)
    {
        _count = count;
        _command = command;
        _gzip = gzip;
        Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        if (gzip)
            Headers.ContentEncoding.Add("gzip");
    }

    /// <summary>Uncompressed bytes written so far.</summary>
    public long BytesWritten { get; private set; }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
    {
        Stream target = _gzip ? new GZipStream(stream, CompressionLevel.Fastest, leaveOpen: true) : stream;
        byte[] buffer = new byte[FlushAt + 64 * 1024];
        int used = 0;
        buffer[used++] = (byte)'[';
        for (long i = 0; i < _count; i++)
        {
            if (i > 0)
                buffer[used++] = (byte)',';
            string command = _command(i);
            int needed = Encoding.UTF8.GetMaxByteCount(command.Length);
            if (used + needed > buffer.Length)
            {
                await FlushAsync(target, buffer, used);
                used = 0;
                if (needed > buffer.Length)
                    buffer = new byte[needed];
            }

            used += Encoding.UTF8.GetBytes(command, buffer.AsSpan(used));
            if (used >= FlushAt)
            {
                await FlushAsync(target, buffer, used);
                used = 0;
            }
        }

        buffer[used++] = (byte)']';
        await FlushAsync(target, buffer, used);
        if (_gzip)
            await target.DisposeAsync();
    }

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }

    private async Task FlushAsync(Stream target, byte[] buffer, int used)
    {
        await target.WriteAsync(buffer.AsMemory(0, used));
        BytesWritten += used;
    }
}
