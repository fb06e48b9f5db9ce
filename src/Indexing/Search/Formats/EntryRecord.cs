namespace Folio.Indexing.Search;

/// <summary>
/// The layout of an entry record, which holds what an update or delete must take back out of the
/// postings: the key (which <see cref="EntryStore"/>
/// keeps beside the rest, front-coded against the key before it), the id of
/// the entry's shape (<see cref="EntryShapes"/>: its fields' ordinals, <see cref="SearchIndex.FieldOrdinalKey"/>,
/// and flags; with <see cref="EntryShapes.InlineId"/> the shape's own encoding follows), then per field of
/// the shape, in its order,
/// <list type="bullet">
/// <item>nothing more with <see cref="InColumnFlag"/>: the field is one number, which its sort column holds;</item>
/// <item>nothing more with <see cref="ValueIdFlag"/>: the field's one term is the id its id column holds;</item>
/// <item>nothing more with <see cref="PositionsFlag"/>: the field is full text, whose terms and positions its postings
/// hold (<see cref="PositionLists"/>); a delete leaves them to the sweep (<see cref="DeadEntries"/>);</item>
/// <item>with <see cref="TermIdsFlag"/> alone: the distinct term count, then their ids;</item>
/// <item>otherwise: the distinct term count, then their bytes (length-prefixed).</item>
/// </list>
/// </summary>
internal static class EntryRecord
{
    /// <summary>The entry has the field (always set; the field's absence leaves it out of the record).</summary>
    public const byte ExistsFlag = 1;

    /// <summary>One of the field's values is an explicit null.</summary>
    public const byte NullFlag = 2;

    /// <summary>The field is full text: the record holds none of its terms, which its postings hold with their positions.</summary>
    public const byte PositionsFlag = 4;

    /// <summary>The field is one number; the record leaves its term out, as the field's sort column holds it.</summary>
    public const byte InColumnFlag = 8;

    /// <summary>The field's terms are ids in its <see cref="TermDictionary"/>.</summary>
    public const byte TermIdsFlag = 16;

    /// <summary>
    /// The field (exact) has one value, which is its one term: the field's id column holds that term's id
    /// in place of a doc value (<see cref="SearchIndex.IdColumnTree"/>), and in place of the record's term list.
    /// </summary>
    public const byte ValueIdFlag = 32;

    /// <summary>Moves past a field's terms (after its ordinal and flags).</summary>
    public static void SkipTerms(ReadOnlySpan<byte> record, ref int position, byte flags)
    {
        if ((flags & (InColumnFlag | ValueIdFlag | PositionsFlag)) != 0)
            return;
        var count = (int)ByteCoding.ReadVarint(record, ref position);
        for (var i = 0; i < count; i++)
        {
            if ((flags & TermIdsFlag) == 0)
                ByteCoding.ReadBytes(record, ref position);
            else
                ByteCoding.ReadVarint(record, ref position);
        }
    }
}
