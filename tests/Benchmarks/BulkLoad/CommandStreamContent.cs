using System.Buffers.Text;
using System.Net;

namespace Folio.Benchmarks.BulkLoad;

/// <summary>
/// A bulk insert body written straight from pre-generated records: <c>[{"Type":"PUT","Id":"orders/N","Document":…},…]</c>,
/// chunked, through one reused buffer, so the client spends its time on the wire, not on serialization.
/// </summary>
public sealed class CommandStreamContent : HttpContent
{
    private const int BufferBytes = 256 * 1024;

    private readonly byte[][] _records;
    private readonly int _start;
    private readonly int _count;

    public CommandStreamContent(byte[][] records, int start, int count)
    {
        _records = records;
        _start = start;
        _count = count;
        Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
    }

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context)
    {
        byte[] buffer = new byte[BufferBytes];
        int used = 0;
        buffer[used++] = (byte)'[';
        for (int i = _start; i < _start + _count; i++)
        {
            byte[] record = _records[i];
            if (used + record.Length + 128 > buffer.Length)
            {
                await stream.WriteAsync(buffer.AsMemory(0, used));
                used = 0;
            }

            if (i > _start)
                buffer[used++] = (byte)',';
            used += Append(buffer.AsSpan(used), """{"Type":"PUT","Id":"orders/"""u8);
            Utf8Formatter.TryFormat(i, buffer.AsSpan(used), out int written);
            used += written;
            used += Append(buffer.AsSpan(used), "\",\"Document\":"u8);
            used += Append(buffer.AsSpan(used), record);
            buffer[used++] = (byte)'}';
        }

        buffer[used++] = (byte)']';
        await stream.WriteAsync(buffer.AsMemory(0, used));
    }

    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }

    private static int Append(Span<byte> target, ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(target);
        return bytes.Length;
    }
}
