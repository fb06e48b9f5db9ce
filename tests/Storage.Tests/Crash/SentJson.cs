using Folio.Storage.Platform;

namespace Folio.Storage.Tests.Crash;

/// <summary>What the CrashWriter sent for a stored document: the store keeps that JSON with its metadata added before the closing brace.</summary>
internal static class SentJson
{
    /// <summary>The CRC-32C of the JSON as it was sent, or null when <paramref name="stored"/> carries no metadata.</summary>
    public static uint? Checksum(ReadOnlySpan<byte> stored)
    {
        var metadata = stored.IndexOf(",\"@metadata\":{"u8);
        if (metadata <= 0)
            return null;
        var sent = new byte[metadata + 1];
        stored[..metadata].CopyTo(sent);
        sent[^1] = (byte)'}';
        return Crc32C.Compute(sent);
    }
}
