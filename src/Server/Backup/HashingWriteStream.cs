using System.IO.Hashing;

namespace Folio.Server.Backup;

/// <summary>Forwards writes to a file and hashes what passes, so a backup file's checksum costs no second read.</summary>
internal sealed class HashingWriteStream : Stream
{
    private readonly Stream _inner;
    private readonly XxHash64 _hash = new();

    public HashingWriteStream(Stream inner)
    {
        _inner = inner;
    }

    public long Written { get; private set; }

    public override bool CanRead => false;

    public override bool CanSeek => false;

    public override bool CanWrite => true;

    public override long Length => Written;

    public override long Position
    {
        get => Written;
        set => throw new NotSupportedException();
    }

    /// <summary>The XxHash64 of everything written, as 16 lower-case hex digits.</summary>
    public string Checksum() => Convert.ToHexStringLower(_hash.GetCurrentHash());

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        _hash.Append(buffer);
        Written += buffer.Length;
        _inner.Write(buffer);
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        _hash.Append(buffer.Span);
        Written += buffer.Length;
        await _inner.WriteAsync(buffer, cancellationToken).ConfigureAwait(false);
    }

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override void Flush() => _inner.Flush();

    public override Task FlushAsync(CancellationToken cancellationToken) => _inner.FlushAsync(cancellationToken);

    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
