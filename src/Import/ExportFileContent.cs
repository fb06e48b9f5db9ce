using System.Net;

namespace Folio.Import;

/// <summary>
/// An export file sent as it is to <c>/databases/{db}/import</c>: a <c>.gz</c> file as <c>application/gzip</c>, any
/// other as NDJSON. The server reads documents and index lines itself, so the CLI only streams and counts bytes.
/// </summary>
public sealed class ExportFileContent : HttpContent
{
    private readonly string _file;
    private readonly ImportProgress _progress;

    /// <summary>Creates the body for <paramref name="file"/>.</summary>
    /// <param name="file">An export, as <c>folio-import export</c> or <c>GET /databases/{db}/export</c> wrote it.</param>
    /// <param name="progress">Counts the bytes as they go out.</param>
    public ExportFileContent(string file, ImportProgress progress)
    {
        _file = file;
        _progress = progress;
        Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue(
            file.EndsWith(".gz", StringComparison.OrdinalIgnoreCase) ? "application/gzip" : "application/x-ndjson");
    }

    /// <inheritdoc/>
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context) =>
        await SerializeToStreamAsync(stream, context, CancellationToken.None).ConfigureAwait(false);

    /// <inheritdoc/>
    protected override async Task SerializeToStreamAsync(Stream stream, TransportContext? context, CancellationToken cancellationToken)
    {
        var input = new FileStream(_file, FileMode.Open, FileAccess.Read, FileShare.Read, 1, FileOptions.Asynchronous | FileOptions.SequentialScan);
        await using (input.ConfigureAwait(false))
        {
            byte[] buffer = new byte[1 << 16];
            int read;
            while ((read = await input.ReadAsync(buffer, cancellationToken).ConfigureAwait(false)) > 0)
            {
                await stream.WriteAsync(buffer.AsMemory(0, read), cancellationToken).ConfigureAwait(false);
                _progress.AddFileBytes(read);
                _progress.AddBytes(read);
            }
        }
    }

    /// <inheritdoc/>
    protected override bool TryComputeLength(out long length)
    {
        length = 0;
        return false;
    }
}
