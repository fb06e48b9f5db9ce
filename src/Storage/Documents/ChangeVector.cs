using System.Buffers.Text;
using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// A document's change vector, <c>A:{etag}-{database id}</c>: it names the write that produced the
/// document's current version, so it doubles as the HTTP ETag. Formatted into spans, never strings,
/// on the read path.
/// </summary>
public static class ChangeVector
{
    /// <summary>The longest change vector: "A:", 19 digits, "-", a 22-character database id.</summary>
    public const int MaxLength = 2 + 19 + 1 + DatabaseIdLength;

    /// <summary>The length of a database id (a GUID in URL-safe base64 without padding).</summary>
    public const int DatabaseIdLength = 22;

    /// <summary>Writes the change vector of <paramref name="etag"/> into <paramref name="destination"/>.</summary>
    public static int Format(long etag, ReadOnlySpan<byte> databaseId, Span<byte> destination)
    {
        destination[0] = (byte)'A';
        destination[1] = (byte)':';
        Utf8Formatter.TryFormat(etag, destination[2..], out var digits);
        var length = 2 + digits;
        destination[length++] = (byte)'-';
        databaseId.CopyTo(destination[length..]);
        return length + databaseId.Length;
    }

    /// <summary>The change vector of <paramref name="etag"/> as a string (for responses that need one).</summary>
    public static string ToString(long etag, ReadOnlySpan<byte> databaseId)
    {
        Span<byte> buffer = stackalloc byte[MaxLength + 8];
        return Encoding.ASCII.GetString(buffer[..Format(etag, databaseId, buffer)]);
    }

    /// <summary>Reads the etag out of a change vector of this database; false for anything else.</summary>
    public static bool TryParse(ReadOnlySpan<char> text, ReadOnlySpan<byte> databaseId, out long etag)
    {
        etag = 0;
        text = text.Trim().Trim('"');
        if (text.Length < 4 || text[0] != 'A' || text[1] != ':')
            return false;
        var dash = text.IndexOf('-');
        if (dash < 3 || !long.TryParse(text[2..dash], System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out etag))
            return false;
        var id = text[(dash + 1)..];
        if (id.Length != databaseId.Length)
            return false;
        for (var i = 0; i < id.Length; i++)
        {
            if (id[i] != databaseId[i])
                return false;
        }
        return true;
    }
}
