using System.Globalization;
using System.Runtime.CompilerServices;

namespace Folio.Indexing.Analysis;

/// <summary>
/// Splits text on word boundaries in the manner of Unicode UAX #29 word segmentation (as Lucene's
/// StandardTokenizer does): letters and digits form words; an apostrophe or period between letters
/// (<c>don't</c>, <c>e.g</c>) and a period, comma or apostrophe between digits (<c>3.14</c>,
/// <c>1,000</c>) stay inside the word; underscores join; combining marks and format characters
/// stay with the preceding character; each CJK ideograph or hiragana character is its own token;
/// katakana runs are one token; emoji (with modifiers and ZWJ sequences) and flag pairs are tokens.
/// Punctuation, spaces and symbols separate tokens and are not emitted.
/// </summary>
/// <remarks>
/// Deliberate deviation from UAX #29: ':' does not join letters, so <c>key:value</c> splits.
/// Unpaired surrogates are treated as separators; the tokenizer never throws on any input.
/// </remarks>
public sealed class WordTokenizer : Tokenizer
{
    /// <summary>Lucene's default maximum token length.</summary>
    public const int DefaultMaxTokenLength = 255;

    private const char ZeroWidthJoiner = '\u200D';

    private readonly int _maxTokenLength;

    /// <summary>Creates a tokenizer.</summary>
    /// <param name="maxTokenLength">Longest token in UTF-16 code units; longer words are emitted in chunks. At least 2, so a surrogate pair always fits.</param>
    public WordTokenizer(int maxTokenLength = DefaultMaxTokenLength)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(maxTokenLength, 2);
        _maxTokenLength = maxTokenLength;
    }

    /// <summary>A shared tokenizer with the default maximum token length.</summary>
    public static WordTokenizer Default { get; } = new();

    /// <inheritdoc />
    public override int MaxTokenLength => _maxTokenLength;

    /// <inheritdoc />
    public override bool TryNext(ReadOnlySpan<char> text, ref int offset, out int start, out int end)
    {
        int i = Math.Max(offset, 0);
        while (i < text.Length)
        {
            WordBreakClass cls = Classify(text, i, out int width);
            int limit = i > text.Length - _maxTokenLength ? text.Length : i + _maxTokenLength;
            switch (cls)
            {
                case WordBreakClass.ALetter:
                case WordBreakClass.Numeric:
                case WordBreakClass.Katakana:
                case WordBreakClass.ExtendNumLet:
                    end = ScanWord(text, i + width, cls, limit, out bool hasWordCharacter);
                    if (!hasWordCharacter)
                    {
                        // A run of underscores alone is punctuation, not a word.
                        i = end;
                        continue;
                    }
                    break;
                case WordBreakClass.Ideographic:
                    end = SkipExtend(text, i + width, limit);
                    break;
                case WordBreakClass.Emoji:
                    end = ScanEmoji(text, i + width, limit);
                    break;
                case WordBreakClass.RegionalIndicator:
                    end = i + width;
                    if (end < text.Length
                        && Classify(text, end, out int nextWidth) == WordBreakClass.RegionalIndicator
                        && end + nextWidth <= limit)
                    {
                        end += nextWidth;
                    }
                    end = SkipExtend(text, end, limit);
                    break;
                default:
                    i += width;
                    continue;
            }

            start = i;
            offset = end;
            return true;
        }

        start = end = offset = text.Length;
        return false;
    }

    private static int ScanWord(ReadOnlySpan<char> text, int i, WordBreakClass last, int limit, out bool hasWordCharacter)
    {
        hasWordCharacter = last != WordBreakClass.ExtendNumLet;
        while (i < text.Length)
        {
            WordBreakClass cls = Classify(text, i, out int width);
            if (i + width > limit)
            {
                break;
            }

            bool join;
            switch (cls)
            {
                case WordBreakClass.Extend:
                    i += width;
                    continue;
                case WordBreakClass.ALetter:
                case WordBreakClass.Numeric:
                    join = last is WordBreakClass.ALetter or WordBreakClass.Numeric or WordBreakClass.ExtendNumLet;
                    break;
                case WordBreakClass.Katakana:
                    join = last is WordBreakClass.Katakana or WordBreakClass.ExtendNumLet;
                    break;
                case WordBreakClass.ExtendNumLet:
                    join = true;
                    break;
                case WordBreakClass.MidLetter:
                case WordBreakClass.MidNum:
                case WordBreakClass.MidNumLet:
                case WordBreakClass.SingleQuote:
                    int after = TryJoinAcrossMiddle(text, i + width, cls, last, limit);
                    if (after < 0)
                    {
                        return i;
                    }

                    i = after;
                    continue;
                default:
                    join = false;
                    break;
            }

            if (!join)
            {
                break;
            }

            hasWordCharacter |= cls != WordBreakClass.ExtendNumLet;
            last = cls;
            i += width;
        }

        return i;
    }

    // WB6/7 and WB11/12: a middle character joins only when the same kind of character follows it,
    // so "dogs'" and "3." end before the punctuation. Returns the index after the following
    // character, or -1 when the word ends before the middle character.
    private static int TryJoinAcrossMiddle(ReadOnlySpan<char> text, int j, WordBreakClass middle, WordBreakClass last, int limit)
    {
        bool lettersMayJoin = last == WordBreakClass.ALetter && middle is WordBreakClass.MidLetter or WordBreakClass.MidNumLet or WordBreakClass.SingleQuote;
        bool digitsMayJoin = last == WordBreakClass.Numeric && middle is WordBreakClass.MidNum or WordBreakClass.MidNumLet or WordBreakClass.SingleQuote;
        if (!lettersMayJoin && !digitsMayJoin)
        {
            return -1;
        }

        while (j < text.Length)
        {
            WordBreakClass next = Classify(text, j, out int width);
            if (next == WordBreakClass.Extend)
            {
                j += width;
                continue;
            }

            bool joins = lettersMayJoin ? next == WordBreakClass.ALetter : next == WordBreakClass.Numeric;
            return joins && j + width <= limit ? j + width : -1;
        }

        return -1;
    }

    private static int SkipExtend(ReadOnlySpan<char> text, int i, int limit)
    {
        while (i < text.Length)
        {
            if (Classify(text, i, out int width) != WordBreakClass.Extend || i + width > limit)
            {
                break;
            }

            i += width;
        }

        return i;
    }

    private static int ScanEmoji(ReadOnlySpan<char> text, int i, int limit)
    {
        while (i < text.Length)
        {
            if (Classify(text, i, out int width) != WordBreakClass.Extend || i + width > limit)
            {
                break;
            }

            // WB3c: ZWJ followed by a pictograph continues the same emoji (👩‍💻).
            if (text[i] == ZeroWidthJoiner
                && i + 1 < text.Length
                && Classify(text, i + 1, out int nextWidth) == WordBreakClass.Emoji
                && i + 1 + nextWidth <= limit)
            {
                i += 1 + nextWidth;
                continue;
            }

            i += width;
        }

        return i;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static WordBreakClass Classify(ReadOnlySpan<char> text, int i, out int width)
    {
        char c = text[i];
        width = 1;
        if (c < 0x80)
        {
            return ClassifyAscii(c);
        }

        if (!char.IsSurrogate(c))
        {
            return ClassifyCodePoint(c);
        }

        if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
        {
            width = 2;
            return ClassifyCodePoint(char.ConvertToUtf32(c, text[i + 1]));
        }

        // An unpaired surrogate carries no text; treat it as a separator rather than failing.
        return WordBreakClass.Other;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static WordBreakClass ClassifyAscii(char c)
    {
        if ((uint)((c | 0x20) - 'a') <= 'z' - 'a')
        {
            return WordBreakClass.ALetter;
        }

        if ((uint)(c - '0') <= 9)
        {
            return WordBreakClass.Numeric;
        }

        return c switch
        {
            '_' => WordBreakClass.ExtendNumLet,
            '.' => WordBreakClass.MidNumLet,
            '\'' => WordBreakClass.SingleQuote,
            ',' or ';' => WordBreakClass.MidNum,
            _ => WordBreakClass.Other,
        };
    }

    private static WordBreakClass ClassifyCodePoint(int cp)
    {
        switch (cp)
        {
            case 0x00B7 or 0x0387 or 0x05F4 or 0x2027 or 0xFE13 or 0xFE55 or 0xFF1A:
                return WordBreakClass.MidLetter;
            case 0x037E or 0x0589 or 0x060C or 0x060D or 0x066C or 0x07F8 or 0x2044
                or 0xFE10 or 0xFE14 or 0xFE50 or 0xFE54 or 0xFF0C or 0xFF1B:
                return WordBreakClass.MidNum;
            case 0x2018 or 0x2019 or 0x2024 or 0xFE52 or 0xFF07 or 0xFF0E:
                return WordBreakClass.MidNumLet;
            case 0x200B:
                // ZERO WIDTH SPACE is a format character but separates words.
                return WordBreakClass.Other;
            case 0x200C or 0x200D:
                return WordBreakClass.Extend;
            case 0x3005 or 0x3006 or 0x3007:
                return WordBreakClass.Ideographic;
            case 0x309B or 0x309C:
                return WordBreakClass.Katakana;
        }

        if (cp >= 0x1F1E6 && cp <= 0x1F1FF)
        {
            return WordBreakClass.RegionalIndicator;
        }

        if (cp >= 0x1F3FB && cp <= 0x1F3FF)
        {
            // Skin-tone modifiers attach to the emoji before them.
            return WordBreakClass.Extend;
        }

        if (IsEmoji(cp))
        {
            return WordBreakClass.Emoji;
        }

        if ((cp >= 0x3040 && cp <= 0x309F)
            || (cp >= 0x3400 && cp <= 0x4DBF)
            || (cp >= 0x4E00 && cp <= 0x9FFF)
            || (cp >= 0xF900 && cp <= 0xFAFF)
            || (cp >= 0x20000 && cp <= 0x3FFFF))
        {
            return WordBreakClass.Ideographic;
        }

        if ((cp >= 0x30A0 && cp <= 0x30FF)
            || (cp >= 0x31F0 && cp <= 0x31FF)
            || (cp >= 0x32D0 && cp <= 0x32FE)
            || (cp >= 0x3300 && cp <= 0x3357)
            || (cp >= 0xFF66 && cp <= 0xFF9F))
        {
            return WordBreakClass.Katakana;
        }

        return CharUnicodeInfo.GetUnicodeCategory(cp) switch
        {
            UnicodeCategory.UppercaseLetter
                or UnicodeCategory.LowercaseLetter
                or UnicodeCategory.TitlecaseLetter
                or UnicodeCategory.ModifierLetter
                or UnicodeCategory.OtherLetter
                or UnicodeCategory.LetterNumber => WordBreakClass.ALetter,
            UnicodeCategory.DecimalDigitNumber => WordBreakClass.Numeric,
            UnicodeCategory.NonSpacingMark
                or UnicodeCategory.SpacingCombiningMark
                or UnicodeCategory.EnclosingMark
                or UnicodeCategory.Format => WordBreakClass.Extend,
            UnicodeCategory.ConnectorPunctuation => WordBreakClass.ExtendNumLet,
            _ => WordBreakClass.Other,
        };
    }

    // An approximation of Extended_Pictographic covering the blocks where emoji live; enough to
    // index emoji as searchable tokens, as Lucene 8's StandardTokenizer does.
    private static bool IsEmoji(int cp) =>
        (cp >= 0x1F000 && cp <= 0x1FAFF)
        || (cp >= 0x2600 && cp <= 0x27BF)
        || cp is 0x231A or 0x231B or 0x2B50 or 0x2B55;
}
