using System.Net;
using System.Threading.Channels;
using Folio.Client.Http;

namespace Folio.Client.BulkInsert;

/// <summary>A request body of unknown length (sent chunked) written from a queue of buffers as they come.</summary>
internal sealed class ChannelContent : HttpContent
{
    private readonly ChannelReader<ReadOnlyMemory<byte>> _chunks;

    public ChannelContent(ChannelReader<ReadOnlyMemory<byte>> chunks)
    {
        _chunks = chunks;
        Headers.ContentType = RequestExecutor.JsonMediaType;
    }

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context) => SerializeToStreamAsync(stream, context, CancellationToken.None);

    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        while (await _chunks.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            while (_chunks.TryRead(out ReadOnlyMemory<byte> chunk))
                await stream.WriteAsync(chunk, cancellationToken).ConfigureAwait(false);
            await stream.FlushAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    protected override bool TryComputeLength(out long length)
    {
        length = -1;
        return false;
    }
}
