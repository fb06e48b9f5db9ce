using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// How identities (the counters behind server-made ids such as <c>users/1</c> for <c>users|</c>) are named and keyed:
/// one counter per id prefix, kept in the store's metadata and compared case-insensitively, so <c>users</c>,
/// <c>users|</c>, <c>users/</c> and <c>Users|</c> name the same counter.
/// </summary>
public static class DocumentIdentities
{
    private const string KeyPrefix = "identity/";

    /// <summary>The longest identity name, in UTF-8 bytes (the id prefix it counts for must leave room for a number).</summary>
    public const int MaxNameBytes = DocumentIds.MaxIdBytes - 20;

    /// <summary>The prefix of the metadata keys identities are kept under.</summary>
    internal static ReadOnlySpan<byte> KeyPrefixBytes => "identity/"u8;

    /// <summary>The id prefix an identity name counts for: <c>users</c>, <c>users|</c> and <c>users/</c> all give <c>users/</c>.</summary>
    /// <exception cref="DocumentValidationException">The name is empty, too long or holds control characters.</exception>
    public static string Prefix(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        var stem = name.Length > 0 && name[^1] is '/' or '|' ? name[..^1] : name;
        if (string.IsNullOrWhiteSpace(stem))
            throw new DocumentValidationException("An identity name must not be empty.");
        if (Encoding.UTF8.GetByteCount(stem) > MaxNameBytes)
            throw new DocumentValidationException($"An identity name may take at most {MaxNameBytes} UTF-8 bytes.");
        foreach (var c in stem)
        {
            if (char.IsControl(c))
                throw new DocumentValidationException("An identity name must not contain control characters.");
        }
        return stem + "/";
    }

    /// <summary>The metadata key of the counter for <paramref name="prefix"/> (as <see cref="Prefix"/> made it).</summary>
    internal static byte[] Key(string prefix) => Encoding.UTF8.GetBytes(KeyPrefix + prefix.ToLowerInvariant());

    /// <summary>The name an identity is listed by, as the seeds' system's clients read it: its prefix with <c>|</c> for the last <c>/</c> (<c>users|</c>).</summary>
    internal static string DisplayName(ReadOnlySpan<byte> key)
    {
        var prefix = Encoding.UTF8.GetString(key[KeyPrefixBytes.Length..]);
        return prefix.Length > 0 && prefix[^1] == '/' ? prefix[..^1] + "|" : prefix;
    }
}
