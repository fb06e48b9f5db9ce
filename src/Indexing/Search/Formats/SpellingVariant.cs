using Folio.Indexing.Postings;

namespace Folio.Indexing.Search;

/// <summary>
/// How a case-folding exact field remembers a value's original spelling: the term dictionary (<see cref="TermDictionary"/>)
/// holds, beside plain terms, variants made of 0xFF, the term's length (a varint), the term and the spelling
/// (<c>dfw</c> spelled <c>DFW</c>). An entry whose value was spelled otherwise than its term names the variant's id
/// where it would name the term's (in its record, or the field's id column), so a delete knows which spelling to
/// take back with no byte more per entry, and the dictionary counts the entries per variant beside its id
/// (<see cref="TermDictionary.CountSpelling"/>): facets answer a value in its most frequent spelling.
/// </summary>
/// <remarks>
/// 0xFF never occurs in UTF-8, and a text term (whole, or shortened with its 0xFE marker) starts with UTF-8, so
/// no plain term starts with 0xFF. A variant is made only for a term kept whole (the term then is the value's
/// normalized bytes) and only when it fits in <see cref="TermEncoding.MaxTermBytes"/>, as terms do; a longer value
/// is answered normalized.
/// </remarks>
internal static class SpellingVariant
{
    /// <summary>The first byte of every variant.</summary>
    public const byte Marker = 0xFF;

    /// <summary>Whether dictionary bytes are a variant rather than a plain term.</summary>
    public static bool IsVariant(ReadOnlySpan<byte> bytes) => !bytes.IsEmpty && bytes[0] == Marker;

    /// <summary>
    /// Writes the variant of <paramref name="term"/> spelled <paramref name="spelling"/> into <paramref name="destination"/>
    /// (at least <see cref="TermEncoding.MaxTermBytes"/> bytes); returns its length, or 0 when it would not fit.
    /// </summary>
    public static int Write(ReadOnlySpan<byte> term, ReadOnlySpan<byte> spelling, Span<byte> destination)
    {
        var length = 1 + Varint.Length((ulong)term.Length) + term.Length + spelling.Length;
        if (length > TermEncoding.MaxTermBytes)
            return 0;
        destination[0] = Marker;
        var position = Varint.Write(destination, 1, (ulong)term.Length);
        term.CopyTo(destination[position..]);
        spelling.CopyTo(destination[(position + term.Length)..]);
        return length;
    }

    /// <summary>The bytes a variant's keys start with: the marker, the length and the term (the spellings of one term follow it).</summary>
    public static int WritePrefix(ReadOnlySpan<byte> term, Span<byte> destination)
    {
        destination[0] = Marker;
        var position = Varint.Write(destination, 1, (ulong)term.Length);
        term.CopyTo(destination[position..]);
        return position + term.Length;
    }

    /// <summary>The term of dictionary bytes: a variant's term, or the bytes themselves.</summary>
    public static ReadOnlySpan<byte> TermOf(ReadOnlySpan<byte> bytes)
    {
        if (!IsVariant(bytes))
            return bytes;
        var position = 1;
        var length = (int)Varint.Read(bytes, ref position);
        return bytes.Slice(position, length);
    }
}
