namespace Folio.Server.Http;

/// <summary>
/// A request body of undeclared length (chunked) read through a byte limit: past it, reads throw the 413 problem.
/// Folio refuses the body itself rather than leaving it to Kestrel's limit, because a body Kestrel refused cannot be
/// read any more, and the refused rest must be drained for the client to read the answer (<see cref="RefusedBody"/>).
/// </summary>
internal sealed class LimitedBodyStream(Stream inner, long limit) : Stream
{
    private long _read;

    public override bool CanRead => true;

    public override bool CanSeek => false;

    public override bool CanWrite => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => _read;
        set => throw new NotSupportedException();
    }

    public override int Read(byte[] buffer, int offset, int count) => Counted(inner.Read(buffer, offset, count));

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        Counted(await inner.ReadAsync(buffer, cancellationToken).ConfigureAwait(false));

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush()
    {
    }

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    private int Counted(int read)
    {
        _read += read;
        if (_read > limit)
        {
            throw new FolioHttpException(
                StatusCodes.Status413PayloadTooLarge,
                "Request too large",
                $"The body is more than {limit} bytes; the limit is {limit} bytes.",
                ProblemTypes.TooLarge);
        }
        return read;
    }
}
