namespace Folio.Indexing.Analysis;

/// <summary>
/// Folds Latin letters with diacritics, ligatures and typographic quotes to their ASCII
/// equivalents (é → e, ß → ss, æ → ae, ø → o, ’ → '), covering the Latin-1 Supplement, Latin
/// Extended-A and most of Latin Extended-B as Lucene's ASCIIFoldingFilter does. Combining
/// diacritical marks (U+0300–U+036F) and soft hyphens are removed, so decomposed text folds
/// like precomposed text.
/// </summary>
public static class AsciiFolding
{
    /// <summary>The most characters one input character folds to (the "ffi" ligature).</summary>
    public const int MaxExpansion = 3;

    private const int TableStart = 0x00AA;
    private const int TableEnd = 0x024F;

    // Indexed by (c - TableStart); null means the character is kept as it is.
    private static readonly string?[] s_table = BuildTable();

    /// <summary>Whether <paramref name="text"/> contains any character that folding changes.</summary>
    /// <param name="text">The text to inspect.</param>
    /// <returns><see langword="true"/> when <see cref="Fold(ReadOnlySpan{char}, Span{char})"/> would change it.</returns>
    public static bool NeedsFolding(ReadOnlySpan<char> text)
    {
        foreach (char c in text)
        {
            if (c >= TableStart && FoldChar(c) is not null)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Folds <paramref name="source"/> into <paramref name="destination"/>.</summary>
    /// <param name="source">The text to fold.</param>
    /// <param name="destination">Receives the folded text; must not overlap <paramref name="source"/>.</param>
    /// <returns>The number of characters written, or -1 when <paramref name="destination"/> is too short.</returns>
    public static int Fold(ReadOnlySpan<char> source, Span<char> destination)
    {
        int written = 0;
        foreach (char c in source)
        {
            string? folded = c >= TableStart ? FoldChar(c) : null;
            if (folded is null)
            {
                if (written >= destination.Length)
                {
                    return -1;
                }

                destination[written++] = c;
                continue;
            }

            if (written + folded.Length > destination.Length)
            {
                return -1;
            }

            folded.CopyTo(destination[written..]);
            written += folded.Length;
        }

        return written;
    }

    /// <summary>Folds a string; convenience for query-time use and tests.</summary>
    /// <param name="text">The text to fold.</param>
    /// <returns>The folded text (the same instance when nothing changes).</returns>
    public static string Fold(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (!NeedsFolding(text))
        {
            return text;
        }

        char[] buffer = new char[text.Length * MaxExpansion];
        return new string(buffer, 0, Fold(text, buffer));
    }

    /// <summary>The ASCII replacement of one character.</summary>
    /// <param name="c">The character.</param>
    /// <returns>The replacement (possibly empty, for marks that are removed), or <see langword="null"/> when <paramref name="c"/> is kept.</returns>
    public static string? FoldChar(char c)
    {
        if (c <= TableEnd)
        {
            return c >= TableStart ? s_table[c - TableStart] : null;
        }

        if (c <= 0x036F)
        {
            return c >= 0x0300 ? string.Empty : null;
        }

        return c switch
        {
            '\u1E9E' => "SS",
            '\u2018' or '\u2019' or '\u201A' or '\u201B' or '\u2032' or '\u2035' => "'",
            '\u201C' or '\u201D' or '\u201E' or '\u201F' or '\u2033' or '\u2036' => "\"",
            '\uFB00' => "ff",
            '\uFB01' => "fi",
            '\uFB02' => "fl",
            '\uFB03' => "ffi",
            '\uFB04' => "ffl",
            '\uFB05' or '\uFB06' => "st",
            _ => null,
        };
    }

    private static string?[] BuildTable()
    {
        var table = new string?[TableEnd - TableStart + 1];

        // Each entry lists the characters that fold to the same replacement.
        (string Chars, string Folded)[] folds =
        [
            ("ÀÁÂÃÄÅĀĂĄǍǞǠǺȀȂȦȺ", "A"),
            ("àáâãäåāăąǎǟǡǻȁȃȧª", "a"),
            ("ÆǢǼ", "AE"),
            ("æǣǽ", "ae"),
            ("ƁƂɃ", "B"),
            ("ƀƃ", "b"),
            ("ÇĆĈĊČƇȻ", "C"),
            ("çćĉċčƈȼ", "c"),
            ("ÐĎĐƉƊƋ", "D"),
            ("ðďđƌȡ", "d"),
            ("ǄǱ", "DZ"),
            ("ǅǲ", "Dz"),
            ("ǆǳ", "dz"),
            ("ȸ", "db"),
            ("ÈÉÊËĒĔĖĘĚƎƐȄȆȨɆ", "E"),
            ("èéêëēĕėęěǝȅȇȩɇ", "e"),
            ("Ƒ", "F"),
            ("ƒ", "f"),
            ("ĜĞĠĢƓǤǦǴ", "G"),
            ("ĝğġģǥǧǵ", "g"),
            ("ĤĦȞ", "H"),
            ("ĥħȟ", "h"),
            ("ÌÍÎÏĨĪĬĮİƗǏȈȊ", "I"),
            ("ìíîïĩīĭįıǐȉȋ", "i"),
            ("Ĳ", "IJ"),
            ("ĳ", "ij"),
            ("ĴɈ", "J"),
            ("ĵǰȷɉ", "j"),
            ("ĶƘǨ", "K"),
            ("ķƙǩ", "k"),
            ("ĹĻĽĿŁȽ", "L"),
            ("ĺļľŀłƚȴ", "l"),
            ("Ǉ", "LJ"),
            ("ǈ", "Lj"),
            ("ǉ", "lj"),
            ("ÑŃŅŇŊƝǸȠ", "N"),
            ("ñńņňŋƞǹȵ", "n"),
            ("ŉ", "'n"),
            ("Ǌ", "NJ"),
            ("ǋ", "Nj"),
            ("ǌ", "nj"),
            ("ÒÓÔÕÖØŌŎŐƟƠǑǪǬǾȌȎȪȬȮȰ", "O"),
            ("òóôõöøōŏőơǒǫǭǿȍȏȫȭȯȱº", "o"),
            ("Œ", "OE"),
            ("œ", "oe"),
            ("Ƥ", "P"),
            ("ƥ", "p"),
            ("Ɋ", "Q"),
            ("ĸɋ", "q"),
            ("ȹ", "qp"),
            ("ŔŖŘȐȒɌ", "R"),
            ("ŕŗřȑȓɍ", "r"),
            ("ŚŜŞŠȘ", "S"),
            ("śŝşšșſȿ", "s"),
            ("ß", "ss"),
            ("ŢŤŦƬƮȚȾ", "T"),
            ("ţťŧƫƭțȶ", "t"),
            ("Þ", "TH"),
            ("þ", "th"),
            ("ÙÚÛÜŨŪŬŮŰŲƯǓǕǗǙǛȔȖɄ", "U"),
            ("ùúûüũūŭůűųưǔǖǘǚǜȕȗ", "u"),
            ("Ʋ", "V"),
            ("Ŵ", "W"),
            ("ŵ", "w"),
            ("ÝŶŸƳȲɎ", "Y"),
            ("ýÿŷƴȳɏ", "y"),
            ("ŹŻŽƵȤ", "Z"),
            ("źżžƶȥɀ", "z"),
            ("\u00AD", ""),
        ];

        foreach ((string chars, string folded) in folds)
        {
            foreach (char c in chars)
            {
                table[c - TableStart] = folded;
            }
        }

        return table;
    }
}
