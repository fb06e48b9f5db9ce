using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;

namespace Folio.Server.Security;

/// <summary>
/// The API key format: <c>folio.{id}.{secret}</c>, a 16-hex-digit public id (how the server finds the key without
/// comparing secrets) and 32 random bytes in base64url. The server keeps only the SHA-256 of the whole text: the
/// secret has 256 bits of entropy, so a plain hash is as strong as a slow one and costs a microsecond per request.
/// </summary>
public static class ApiKeys
{
    /// <summary>The scheme of the <c>Authorization</c> header: <c>Authorization: ApiKey folio.…</c>.</summary>
    public const string Scheme = "ApiKey";

    /// <summary>What every key starts with, so secret scanners and people can recognise one.</summary>
    public const string Prefix = "folio.";

    /// <summary>Length of the public id, in hex digits.</summary>
    public const int IdLength = 16;

    private const int SecretBytes = 32;

    /// <summary>Longest key text accepted; anything longer is not a key and is not hashed.</summary>
    public const int MaxLength = 128;

    /// <summary>Makes a new key.</summary>
    /// <returns>The key's public id and its whole text (shown to its owner once, never stored).</returns>
    public static (string Id, string Key) Create()
    {
        string id = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(IdLength / 2));
        string secret = Base64Url.EncodeToString(RandomNumberGenerator.GetBytes(SecretBytes));
        return (id, Prefix + id + "." + secret);
    }

    /// <summary>SHA-256 of a key's text, as stored.</summary>
    /// <param name="key">The whole key.</param>
    /// <returns>The 32-byte hash.</returns>
    public static byte[] Hash(string key) => SHA256.HashData(Encoding.UTF8.GetBytes(key));

    /// <summary>Finds the public id in a key's text without allocating.</summary>
    /// <param name="key">The text a caller sent.</param>
    /// <param name="id">The id's characters, when the text has the key's shape.</param>
    /// <returns>False when the text cannot be a key.</returns>
    public static bool TryReadId(ReadOnlySpan<char> key, out ReadOnlySpan<char> id)
    {
        id = default;
        if (key.Length > MaxLength || key.Length < Prefix.Length + IdLength + 2 || !key.StartsWith(Prefix, StringComparison.Ordinal) || key[Prefix.Length + IdLength] != '.')
            return false;
        id = key.Slice(Prefix.Length, IdLength);
        return true;
    }

    /// <summary>Whether a key's text hashes to the stored hash; the comparison takes the same time wherever they differ.</summary>
    /// <param name="key">The text a caller sent (at most <see cref="MaxLength"/> characters).</param>
    /// <param name="storedHash">The stored SHA-256.</param>
    /// <returns>True when it is the key.</returns>
    public static bool Matches(ReadOnlySpan<char> key, ReadOnlySpan<byte> storedHash)
    {
        Span<byte> utf8 = stackalloc byte[MaxLength * 3];
        int length = Encoding.UTF8.GetBytes(key, utf8);
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(utf8[..length], hash);
        return CryptographicOperations.FixedTimeEquals(hash, storedHash);
    }
}
