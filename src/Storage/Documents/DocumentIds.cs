using System.Text;

namespace Folio.Storage.Documents;

/// <summary>Rules for document ids: what is accepted, how ids compare, where a collection comes from.</summary>
public static class DocumentIds
{
    /// <summary>The longest id, in UTF-8 bytes; it leaves room in a tree key for index suffixes.</summary>
    public const int MaxIdBytes = 512;

    /// <summary>
    /// The most bytes an id's storage key can take: lower-casing maps each UTF-16 unit to one, but may move it
    /// from a two-byte to a three-byte UTF-8 sequence (Ⱥ to ⱥ), so the key can outgrow the id it came from.
    /// </summary>
    public const int MaxKeyBytes = MaxIdBytes * 3;

    /// <summary>Checks an id a client sent; throws <see cref="DocumentValidationException"/> naming the problem.</summary>
    public static void Validate(string? id)
    {
        if (string.IsNullOrWhiteSpace(id))
            throw new DocumentValidationException("A document id must not be empty.");
        if (Encoding.UTF8.GetByteCount(id) > MaxIdBytes)
            throw new DocumentValidationException($"A document id may take at most {MaxIdBytes} UTF-8 bytes.");
        foreach (var c in id)
        {
            if (char.IsControl(c))
                throw new DocumentValidationException("A document id must not contain control characters.");
        }
        for (var i = 0; i < id.Length; i++)
        {
            if (char.IsSurrogate(id[i]) && (!char.IsHighSurrogate(id[i]) || i + 1 >= id.Length || !char.IsLowSurrogate(id[++i])))
                throw new DocumentValidationException("A document id must be valid Unicode (it has an unpaired surrogate).");
        }
    }

    /// <summary>Whether the id asks the server to make one (it ends in '/' or '|').</summary>
    public static bool IsServerGenerated(string id) => id.Length > 0 && id[^1] is '/' or '|';

    /// <summary>The key an id is stored under: ids compare case-insensitively.</summary>
    public static byte[] Key(string id) => Encoding.UTF8.GetBytes(id.ToLowerInvariant());

    /// <summary>
    /// Writes <see cref="Key"/>'s bytes for <paramref name="id"/> into <paramref name="destination"/> without
    /// allocating (reads by id are the hot path); false when the key does not fit <paramref name="destination"/>
    /// (<see cref="MaxKeyBytes"/> holds the key of any id that passes <see cref="Validate"/>).
    /// </summary>
    public static bool TryWriteKey(ReadOnlySpan<char> id, Span<byte> destination, out int length)
    {
        length = 0;
        if (id.Length > destination.Length)
            return false;
        Span<char> folded = id.Length <= 256 ? stackalloc char[256] : new char[id.Length];
        folded = folded[..id.Length];
        id.ToLowerInvariant(folded);
        return Encoding.UTF8.TryGetBytes(folded, destination, out length);
    }

    /// <summary>The collection an id implies when the document names none: the part before the first '/'.</summary>
    public static string CollectionFromId(string id)
    {
        var slash = id.IndexOf('/');
        return slash > 0 ? id[..slash] : EmptyCollection;
    }

    /// <summary>The collection of documents whose id names none and whose metadata names none.</summary>
    public const string EmptyCollection = "@empty";
}
