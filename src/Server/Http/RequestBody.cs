using System.Buffers;

namespace Folio.Server.Http;

/// <summary>
/// A request body read whole into a pooled buffer, within a byte limit. Dispose it to return the buffer;
/// the bytes are only valid until then.
/// </summary>
public struct RequestBody : IDisposable
{
    private const int InitialSize = 4096;

    private byte[]? _buffer;
    private int _length;

    private RequestBody(byte[] buffer, int length)
    {
        _buffer = buffer;
        _length = length;
    }

    /// <summary>The body's bytes.</summary>
    public readonly ReadOnlySpan<byte> Span => _buffer.AsSpan(0, _length);

    /// <summary>The body's bytes as memory (for parsers that need it).</summary>
    public readonly ReadOnlyMemory<byte> Memory => _buffer.AsMemory(0, _length);

    /// <summary>
    /// Reads the whole body. A declared length over the limit is refused before reading; a chunked body
    /// is refused as soon as it passes the limit, without reading the rest.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <param name="limit">Most bytes accepted.</param>
    /// <param name="cancellationToken">Cancels the read when the client goes away.</param>
    /// <returns>The body; the caller disposes it.</returns>
    /// <exception cref="FolioHttpException">413 when the body is larger than <paramref name="limit"/>.</exception>
    public static async ValueTask<RequestBody> ReadAsync(HttpRequest request, long limit, CancellationToken cancellationToken)
    {
        long? declared = request.ContentLength;
        if (declared > limit)
            throw TooLarge(declared.Value.ToString(System.Globalization.CultureInfo.InvariantCulture), limit);

        // Arrays cap at int.MaxValue; limits above that are refused by configuration validation long before.
        int cap = (int)Math.Min(limit, Array.MaxLength - 1);
        int size = declared is long known ? (int)Math.Min(known + 1, cap + 1L) : Math.Min(InitialSize, cap + 1);
        byte[] buffer = ArrayPool<byte>.Shared.Rent(Math.Max(size, 1));
        int length = 0;
        try
        {
            Stream body = request.Body;
            while (true)
            {
                if (length == buffer.Length)
                {
                    // Grow only to one byte past the limit: enough to notice the body is too large.
                    byte[] larger = ArrayPool<byte>.Shared.Rent((int)Math.Min((long)buffer.Length * 2, cap + 1L));
                    buffer.AsSpan(0, length).CopyTo(larger);
                    ArrayPool<byte>.Shared.Return(buffer);
                    buffer = larger;
                }

                int read = await body.ReadAsync(buffer.AsMemory(length), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                    break;
                length += read;
                if (length > limit)
                    throw TooLarge("more than " + limit.ToString(System.Globalization.CultureInfo.InvariantCulture), limit);
            }

            return new RequestBody(buffer, length);
        }
        catch
        {
            ArrayPool<byte>.Shared.Return(buffer);
            throw;
        }
    }

    /// <summary>Returns the buffer to the pool.</summary>
    public void Dispose()
    {
        byte[]? buffer = _buffer;
        _buffer = null;
        _length = 0;
        if (buffer is not null)
            ArrayPool<byte>.Shared.Return(buffer);
    }

    private static FolioHttpException TooLarge(string size, long limit) =>
        new(
            StatusCodes.Status413PayloadTooLarge,
            "Request too large",
            $"The body is {size} bytes; the limit is {limit} bytes.",
            ProblemTypes.TooLarge);
}
