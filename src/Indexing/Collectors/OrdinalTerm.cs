using Folio.Indexing.Search;

namespace Folio.Indexing.Collectors;

/// <summary>
/// The value an ordinal of a field's doc values stands for (<see cref="IDocValues.ReadOrdinal"/>), decoded once: a
/// term facet meets the same few thousand values in every query, and decoding each (its bytes copied, its text made
/// a string) was most of what answering a facet with many values cost.
/// </summary>
public sealed class OrdinalTerm
{
    /// <summary>Decodes <paramref name="value"/>.</summary>
    public OrdinalTerm(DocValue value)
    {
        Encoded = value.Encoded.ToArray();
        Bytes = value.Bytes.ToArray();
        Kind = value.Kind;
        Value = value.ToFieldValue();
    }

    /// <summary>The value as <see cref="DocValue.Encoded"/> gives it: what collectors key values by.</summary>
    public byte[] Encoded { get; }

    /// <summary>The value's bytes (<see cref="DocValue.Bytes"/>).</summary>
    public byte[] Bytes { get; }

    /// <summary>The value's kind.</summary>
    public DocValueKind Kind { get; }

    /// <summary>The value, decoded.</summary>
    public FieldValue Value { get; }

    /// <summary>
    /// The value's number among the values of its field the index has read so far, shared by every ordinal that
    /// stands for it (its spellings): a facet merges ordinals and finds spellings by it without hashing the bytes.
    /// -1 for a value not kept (see <c>OrdinalTermCache</c>).
    /// </summary>
    public int Number { get; internal set; } = -1;
}
