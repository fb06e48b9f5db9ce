using System.Buffers;
using System.Text.Unicode;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>
/// Checks a worker's message is UTF-8 before it is parsed. The JSON reader checks structure, not the bytes inside strings,
/// so invalid UTF-8 in a name would otherwise surface later as an <see cref="InvalidOperationException"/> from
/// <c>GetString()</c>, ending the connection without an answer.
/// </summary>
internal static class Utf8Text
{
    /// <summary>Whether <paramref name="bytes"/> is valid UTF-8, across segment boundaries too.</summary>
    public static bool IsValid(in ReadOnlySequence<byte> bytes)
    {
        if (bytes.IsSingleSegment)
            return Utf8.IsValid(bytes.FirstSpan);

        // Messages are at most a megabyte and only headers, options and acknowledgements: one copy is cheap.
        byte[] rented = ArrayPool<byte>.Shared.Rent(checked((int)bytes.Length));
        try
        {
            bytes.CopyTo(rented);
            return Utf8.IsValid(rented.AsSpan(0, (int)bytes.Length));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
