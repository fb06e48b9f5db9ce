using System.Buffers.Binary;
using System.Text;

namespace Folio.Storage.Documents;

/// <summary>
/// How compare-exchange entries are kept: in the store's <c>cmpxchg</c> tree under their lower-cased UTF-8 key, each
/// record the entry's index (8 bytes), the length of its key as first written (2 bytes), that key and the JSON value.
/// The last index handed out is kept in the store's metadata, so indexes grow across restarts.
/// </summary>
public static class CompareExchangeEntries
{
    /// <summary>The longest key, in UTF-8 bytes (as in the seeds' system).</summary>
    public const int MaxKeyBytes = 512;

    /// <summary>The key prefix of the atomic guards a cluster-wide batch keeps for the documents it writes.</summary>
    public const string AtomicGuardPrefix = "rvn-atomic/";

    internal const string Tree = "cmpxchg";

    private const int HeaderSize = 10;

    internal static ReadOnlySpan<byte> LastIndexKey => "cmpxchg-last-index"u8;

    /// <summary>Checks a key: not empty, at most <see cref="MaxKeyBytes"/> bytes, no control characters.</summary>
    /// <exception cref="DocumentValidationException">The key is not usable.</exception>
    public static void Validate(string key)
    {
        ArgumentNullException.ThrowIfNull(key);
        if (key.Length == 0)
            throw new DocumentValidationException("A compare-exchange key must not be empty.");
        if (Encoding.UTF8.GetByteCount(key) > MaxKeyBytes)
            throw new DocumentValidationException($"A compare-exchange key may take at most {MaxKeyBytes} UTF-8 bytes.");
        foreach (var c in key)
        {
            if (char.IsControl(c))
                throw new DocumentValidationException("A compare-exchange key must not contain control characters.");
        }
    }

    /// <summary>The atomic guard key of document <paramref name="id"/>.</summary>
    public static string AtomicGuardKey(string id) => AtomicGuardPrefix + id;

    internal static byte[] StorageKey(string key) => Encoding.UTF8.GetBytes(key.ToLowerInvariant());

    internal static void Write(Span<byte> record, long index, string key, ReadOnlySpan<byte> json)
    {
        BinaryPrimitives.WriteInt64LittleEndian(record, index);
        var keyLength = Encoding.UTF8.GetBytes(key, record[HeaderSize..]);
        BinaryPrimitives.WriteUInt16LittleEndian(record[8..], (ushort)keyLength);
        json.CopyTo(record[(HeaderSize + keyLength)..]);
    }

    internal static int RecordSize(string key, int jsonLength) => HeaderSize + Encoding.UTF8.GetByteCount(key) + jsonLength;

    internal static long IndexOf(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadInt64LittleEndian(record);

    internal static CompareExchangeValue Read(ReadOnlySpan<byte> record)
    {
        var keyLength = BinaryPrimitives.ReadUInt16LittleEndian(record[8..]);
        var key = Encoding.UTF8.GetString(record.Slice(HeaderSize, keyLength));
        return new CompareExchangeValue(key, IndexOf(record), record[(HeaderSize + keyLength)..].ToArray());
    }
}
