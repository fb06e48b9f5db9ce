using System.Buffers;
using System.IO.Compression;
using System.IO.Pipelines;
using System.Net;

namespace Folio.Import;

/// <summary>
/// The bulk insert body, produced while it is sent: the input files are read, cut into documents and
/// written as commands through one buffer, so memory stays small whatever the files' size. No length
/// is declared, so HttpClient sends it chunked.
/// </summary>
public sealed class ImportContent : HttpContent
{
    private const int FlushAt = 256 * 1024;

    private readonly ImportOptions _options;
    private readonly ImportProgress _progress;

    /// <summary>Creates the body for <paramref name="options"/>'s files.</summary>
    /// <param name="options">Files, id prefix and compression.</param>
    /// <param name="progress">Counts documents and bytes as they go out.</param>
    public ImportContent(ImportOptions options, ImportProgress progress)
    {
        _options = options;
        _progress = progress;
        Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        if (options.Gzip)
            Headers.ContentEncoding.Add("gzip");
    }

    /// <inheritdoc/>
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        await SerializeToStreamAsync(stream, context, CancellationToken.None).ConfigureAwait(false);

    /// <inheritdoc/>
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        Stream target = _options.Gzip ? new GZipStream(stream, CompressionLevel.Fastest, leaveOpen: true) : stream;
        var output = new ArrayBufferWriter<byte>(FlushAt * 2);
        var commands = new CommandWriter(output, _options.IdPrefix);
        output.Write("["u8);
        foreach (string file in _options.Files)
        {
            var input = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous | FileOptions.SequentialScan);
            await using (input.ConfigureAwait(false))
            {
                PipeReader pipe = PipeReader.Create(input, new StreamPipeReaderOptions(bufferSize: 1 << 20, leaveOpen: true));
                var splitter = new DocumentSplitter(Path.GetFileName(file), commands, _progress);
                long position = 0;
                while (true)
                {
                    ReadResult read = await pipe.ReadAsync(cancellationToken).ConfigureAwait(false);
                    SequencePosition consumed = splitter.Split(read.Buffer, read.IsCompleted);
                    pipe.AdvanceTo(consumed, read.Buffer.End);
                    _progress.AddFileBytes(input.Position - position);
                    position = input.Position;
                    if (output.WrittenCount >= FlushAt)
                        await SendAsync(target, output, cancellationToken).ConfigureAwait(false);
                    if (read.IsCompleted)
                        break;
                }

                await pipe.CompleteAsync().ConfigureAwait(false);
            }
        }

        output.Write("]"u8);
        await SendAsync(target, output, cancellationToken).ConfigureAwait(false);
        if (_options.Gzip)
            await target.DisposeAsync().ConfigureAwait(false);
    }

    /// <inheritdoc/>
    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }

    private async Task SendAsync(Stream target, ArrayBufferWriter<byte> output, CancellationToken cancellationToken)
    {
        await target.WriteAsync(output.WrittenMemory, cancellationToken).ConfigureAwait(false);
        _progress.AddBytes(output.WrittenCount);
        output.ResetWrittenCount();
    }
}
