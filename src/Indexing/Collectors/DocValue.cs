using System.Text;
using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// One value of a field of an entry, read from a <see cref="DocValuesBlock"/>: valid until the block is
/// filled again. Values of one field compare as their <see cref="Bytes"/> do.
/// </summary>
public readonly ref struct DocValue
{
    internal DocValue(DocValueKind kind, ReadOnlySpan<byte> bytes, ReadOnlySpan<byte> encoded)
    {
        Kind = kind;
        Bytes = bytes;
        Encoded = encoded;
    }

    /// <summary>What the value holds.</summary>
    public DocValueKind Kind { get; }

    /// <summary>The value's bytes in the form its <see cref="Kind"/> names (empty for a null).</summary>
    public ReadOnlySpan<byte> Bytes { get; }

    /// <summary>
    /// The kind and the bytes as one span: two values are equal exactly when these are, so a collector can
    /// count values by them without decoding each.
    /// </summary>
    public ReadOnlySpan<byte> Encoded { get; }

    /// <summary>The value decoded (a string, a number or null).</summary>
    public FieldValue ToFieldValue() => Kind switch
    {
        DocValueKind.Null => FieldValue.Null,
        DocValueKind.Long => FieldValue.From(TermEncoding.DecodeLong(Bytes)),
        DocValueKind.Double => FieldValue.From(TermEncoding.DecodeDouble(Bytes)),
        _ => FieldValue.From(Encoding.UTF8.GetString(Bytes)),
    };
}
