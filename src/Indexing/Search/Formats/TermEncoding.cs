using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;

namespace Folio.Indexing.Search;

/// <summary>
/// How values become term bytes and term bytes become tree keys. Numbers are order-preserving
/// big-endian bytes, so a numeric range is a key range. A term key is the term with its zero bytes
/// escaped (0x00 0xFF) and ended by 0x00 0x00: no term key is a prefix of another's, so the key
/// alone stands for "this term" and the key plus an 8-byte id stands for one of its posting chunks.
/// </summary>
public static class TermEncoding
{
    /// <summary>
    /// The longest term kept whole. Longer values keep their first bytes plus a marker and a hash,
    /// so they are still found by equality (and, mostly, by prefix) without breaking the key limit.
    /// </summary>
    public const int MaxTermBytes = 256;

    private const int KeptPrefix = MaxTermBytes - 1 - 16;

    /// <summary>The term of a long: big-endian with the sign bit flipped, so byte order is numeric order.</summary>
    public static byte[] Long(long value)
    {
        var term = new byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(term, (ulong)value ^ 0x8000_0000_0000_0000UL);
        return term;
    }

    /// <summary>The long a <see cref="Long(long)"/> term encodes.</summary>
    public static long DecodeLong(ReadOnlySpan<byte> term) => (long)(BinaryPrimitives.ReadUInt64BigEndian(term) ^ 0x8000_0000_0000_0000UL);

    /// <summary>
    /// The term of a double: its IEEE bits with the sign flipped for positives and every bit flipped
    /// for negatives, which orders them numerically. −0 is indexed as 0.
    /// </summary>
    public static byte[] Double(double value)
    {
        if (double.IsNaN(value))
            throw new ArgumentException("NaN cannot be indexed as a number.", nameof(value));
        var term = new byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(term, DoubleKey(value));
        return term;
    }

    /// <summary>The double a <see cref="Double(double)"/> term encodes.</summary>
    public static double DecodeDouble(ReadOnlySpan<byte> term) => DoubleOfKey(BinaryPrimitives.ReadUInt64BigEndian(term));

    /// <summary>A <see cref="Double(double)"/> term read as a big-endian ulong, without the array.</summary>
    internal static ulong DoubleKey(double value)
    {
        if (value == 0)
            value = 0;
        var bits = (ulong)BitConverter.DoubleToInt64Bits(value);
        return (bits & 0x8000_0000_0000_0000UL) != 0 ? ~bits : bits ^ 0x8000_0000_0000_0000UL;
    }

    /// <summary>The double a <see cref="DoubleKey"/> stands for.</summary>
    internal static double DoubleOfKey(ulong key)
    {
        var bits = (key & 0x8000_0000_0000_0000UL) != 0 ? key ^ 0x8000_0000_0000_0000UL : ~key;
        return BitConverter.Int64BitsToDouble((long)bits);
    }

    /// <summary>The term of a text token: its UTF-8 bytes, shortened with a hash past <see cref="MaxTermBytes"/>.</summary>
    public static byte[] Text(ReadOnlySpan<char> token)
    {
        var length = Encoding.UTF8.GetByteCount(token);
        var bytes = new byte[length];
        Encoding.UTF8.GetBytes(token, bytes);
        return length <= MaxTermBytes ? bytes : Shorten(bytes);
    }

    /// <summary>Whether a text term was shortened (so a prefix match against it is only as long as its kept bytes).</summary>
    public static bool IsShortened(ReadOnlySpan<byte> term) => term.Length == MaxTermBytes && term[KeptPrefix] == 0xFE;

    /// <summary>The bytes a shortened term keeps of its value.</summary>
    public const int KeptBytes = KeptPrefix;

    /// <summary>
    /// Compares a term with a whole value's bytes the way the values themselves compare; null when
    /// the term is shortened and its kept bytes are the value's first bytes (only the whole value can tell).
    /// </summary>
    public static int? CompareToValue(ReadOnlySpan<byte> term, ReadOnlySpan<byte> value)
    {
        if (!IsShortened(term))
            return Math.Sign(term.SequenceCompareTo(value));
        var cmp = term[..KeptPrefix].SequenceCompareTo(value[..Math.Min(value.Length, KeptPrefix)]);
        return cmp != 0 ? Math.Sign(cmp) : null;
    }

    /// <summary>Whether a shortened term may stand for a value starting with <paramref name="prefix"/>'s first kept bytes.</summary>
    public static bool SharesKeptPrefix(ReadOnlySpan<byte> term, ReadOnlySpan<byte> prefix) =>
        prefix.Length >= KeptPrefix && term.StartsWith(prefix[..KeptPrefix]);

    private static byte[] Shorten(byte[] bytes)
    {
        var term = new byte[MaxTermBytes];
        bytes.AsSpan(0, KeptPrefix).CopyTo(term);
        // 0xFE never occurs in UTF-8, so a shortened term cannot equal any whole one.
        term[KeptPrefix] = 0xFE;
        SHA256.HashData(bytes).AsSpan(0, 16).CopyTo(term.AsSpan(KeptPrefix + 1));
        return term;
    }

    /// <summary>The key standing for <paramref name="term"/> in a terms tree.</summary>
    public static byte[] TermKey(ReadOnlySpan<byte> term)
    {
        var key = new byte[EscapedLength(term) + 2];
        Escape(term, key);
        return key;
    }

    /// <summary>The most bytes <see cref="TermKey(ReadOnlySpan{byte}, Span{byte})"/> writes for a term of <paramref name="termLength"/> bytes.</summary>
    public static int MaxTermKeyLength(int termLength) => termLength * 2 + 2;

    /// <summary>Writes the key standing for <paramref name="term"/> into <paramref name="destination"/>; returns its length.</summary>
    public static int TermKey(ReadOnlySpan<byte> term, Span<byte> destination)
    {
        var length = EscapedLength(term) + 2;
        Escape(term, destination);
        return length;
    }

    /// <summary>The key of the posting chunk (under <paramref name="termKey"/>) that starts at <paramref name="firstId"/>.</summary>
    public static byte[] ChunkKey(ReadOnlySpan<byte> termKey, long firstId)
    {
        var key = new byte[termKey.Length + 8];
        termKey.CopyTo(key);
        BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(termKey.Length), firstId);
        return key;
    }

    /// <summary>A key above every key of <paramref name="termKey"/>'s term and below the next term's keys.</summary>
    public static byte[] AfterTerm(ReadOnlySpan<byte> termKey)
    {
        var key = termKey.ToArray();
        key[^1] = 0x01;
        return key;
    }

    /// <summary>The term a term key (or chunk key) stands for; false if the key is neither.</summary>
    public static bool TryDecodeKey(ReadOnlySpan<byte> key, out byte[] term, out int termKeyLength)
    {
        var buffer = new byte[key.Length];
        if (TryDecodeKey(key, buffer, out var termLength, out termKeyLength))
        {
            term = buffer.AsSpan(0, termLength).ToArray();
            return true;
        }
        term = [];
        return false;
    }

    /// <summary>
    /// Like <see cref="TryDecodeKey(ReadOnlySpan{byte}, out byte[], out int)"/>, into <paramref name="term"/>
    /// (at least as long as <paramref name="key"/>), for walks over many terms that allocate nothing per term.
    /// </summary>
    internal static bool TryDecodeKey(ReadOnlySpan<byte> key, Span<byte> term, out int termLength, out int termKeyLength)
    {
        var length = 0;
        for (var i = 0; i < key.Length; i++)
        {
            if (key[i] != 0)
            {
                term[length++] = key[i];
                continue;
            }
            if (i + 1 >= key.Length)
                break;
            if (key[i + 1] == 0xFF)
            {
                term[length++] = 0;
                i++;
                continue;
            }
            if (key[i + 1] == 0)
            {
                termLength = length;
                termKeyLength = i + 2;
                return true;
            }
            break;
        }
        termLength = 0;
        termKeyLength = 0;
        return false;
    }

    private static int EscapedLength(ReadOnlySpan<byte> term)
    {
        var length = term.Length;
        foreach (var b in term)
        {
            if (b == 0)
                length++;
        }
        return length;
    }

    private static void Escape(ReadOnlySpan<byte> term, Span<byte> destination)
    {
        var length = 0;
        foreach (var b in term)
        {
            destination[length++] = b;
            if (b == 0)
                destination[length++] = 0xFF;
        }
        destination[length++] = 0;
        destination[length] = 0;
    }
}
