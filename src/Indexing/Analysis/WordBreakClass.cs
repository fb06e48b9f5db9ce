namespace Folio.Indexing.Analysis;

/// <summary>The UAX #29 word-break properties the tokenizer distinguishes (a subset, plus emoji).</summary>
internal enum WordBreakClass : byte
{
    Other,
    ALetter,
    Numeric,
    Katakana,
    ExtendNumLet,
    MidLetter,
    MidNum,
    MidNumLet,
    SingleQuote,
    Extend,
    Ideographic,
    Emoji,
    RegionalIndicator,
}
