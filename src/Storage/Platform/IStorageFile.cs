namespace Folio.Storage.Platform;

/// <summary>
/// One file of an environment as the engine writes it. Every write the engine makes goes through
/// this seam, which is where tests inject torn, dropped and reordered writes.
/// </summary>
internal interface IStorageFile : IDisposable
{
    long Length { get; }

    void SetLength(long length);

    void Write(long offset, ReadOnlySpan<byte> data);

    /// <summary>Reads up to <paramref name="buffer"/>'s length; returns the bytes read (short at the end).</summary>
    int Read(long offset, Span<byte> buffer);

    /// <summary>Makes every earlier write durable; throws if the device says it could not.</summary>
    void Flush();
}
