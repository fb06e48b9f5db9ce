namespace Folio.Indexing.Analysis;

/// <summary>
/// The Porter2 stemmer (Snowball "english"), written from the published algorithm: exceptional
/// forms, apostrophe handling, y/Y marking, R1/R2 (with the gener-/commun-/arsen- prefixes) and
/// steps 0 to 5. It stems in place and never allocates.
/// </summary>
/// <remarks>
/// Besides the original 2002 rules it includes one later refinement of step 1b that the Snowball
/// project's current English test vocabulary reflects: a double consonant left after removing
/// -ed/-ing is kept when exactly "a", "e" or "o" precedes it ("added" -> "add", not "ad").
/// </remarks>
/// <remarks>
/// Input is expected lower-case. Characters other than a-z are treated as non-vowels, as the
/// Snowball implementation does. <c>Y</c> is used internally to mark consonant y, so an upper-case
/// Y in the input comes out as <c>y</c>.
/// </remarks>
public static class Porter2Stemmer
{
    /// <summary>Stems <paramref name="word"/> in place.</summary>
    /// <param name="word">A lower-case word; it is rewritten with the stem in its first characters.</param>
    /// <returns>The stem's length (never more than the word's).</returns>
    public static int Stem(Span<char> word)
    {
        int len = word.Length;
        if (len < 3)
        {
            return len;
        }

        if (TryExceptionalForm(word, ref len))
        {
            return len;
        }

        // Prelude: drop a leading apostrophe, then mark consonant y as Y so that later vowel
        // tests do not count it.
        if (word[0] == '\'')
        {
            word[1..len].CopyTo(word);
            len--;
        }

        bool hasY = false;
        if (len > 0 && word[0] == 'y')
        {
            word[0] = 'Y';
            hasY = true;
        }

        for (int i = 1; i < len; i++)
        {
            if (word[i] == 'y' && IsVowel(word[i - 1]))
            {
                word[i] = 'Y';
                hasY = true;
            }
        }

        MarkRegions(word[..len], out int p1, out int p2);

        Span<char> w = word;
        Step0(w, ref len);
        Step1a(w, ref len);
        if (!IsInvariantAfterStep1a(w[..len]))
        {
            Step1b(w, ref len, p1);
            Step1c(w, len);
            Step2(w, ref len, p1);
            Step3(w, ref len, p1, p2);
            Step4(w, ref len, p2);
            Step5(w, ref len, p1, p2);
        }

        if (hasY)
        {
            w[..len].Replace('Y', 'y');
        }

        return len;
    }

    /// <summary>Stems a string; convenience for tests and query-time use.</summary>
    /// <param name="word">A lower-case word.</param>
    /// <returns>The stem.</returns>
    public static string Stem(string word)
    {
        ArgumentNullException.ThrowIfNull(word);
        char[] buffer = word.ToCharArray();
        int len = Stem(buffer.AsSpan());
        return new string(buffer, 0, len);
    }

    private static bool IsVowel(char c) => c is 'a' or 'e' or 'i' or 'o' or 'u' or 'y';

    private static bool EndsWith(ReadOnlySpan<char> w, int len, string suffix) =>
        len >= suffix.Length && w[(len - suffix.Length)..len].SequenceEqual(suffix);

    // Writes `replacement` over the last `suffixLength` characters. Never lengthens past the
    // original word because every Porter2 replacement is no longer than what it replaces.
    private static void Replace(Span<char> w, ref int len, int suffixLength, string replacement)
    {
        int at = len - suffixLength;
        replacement.CopyTo(w[at..]);
        len = at + replacement.Length;
    }

    private static bool TryExceptionalForm(Span<char> w, ref int len)
    {
        ReadOnlySpan<char> word = w[..len];
        string? stem = word switch
        {
            "skis" => "ski",
            "skies" => "sky",
            "dying" => "die",
            "lying" => "lie",
            "tying" => "tie",
            "idly" => "idl",
            "gently" => "gentl",
            "ugly" => "ugli",
            "early" => "earli",
            "only" => "onli",
            "singly" => "singl",
            "sky" or "news" or "howe" or "atlas" or "cosmos" or "bias" or "andes" => "",
            _ => null,
        };

        if (stem is null)
        {
            return false;
        }

        if (stem.Length > 0)
        {
            stem.CopyTo(w);
            len = stem.Length;
        }

        return true;
    }

    private static bool IsInvariantAfterStep1a(ReadOnlySpan<char> word) =>
        word is "inning" or "outing" or "canning" or "herring" or "earring" or "proceed" or "exceed" or "succeed";

    // R1 starts after the first non-vowel that follows a vowel; R2 is the same rule applied
    // again inside R1. A few prefixes are fixed so that e.g. "general" and "generous" keep a
    // distinct stem from "gener-" words with a short R1.
    private static void MarkRegions(ReadOnlySpan<char> w, out int p1, out int p2)
    {
        int len = w.Length;
        if (w.StartsWith("gener") || w.StartsWith("arsen"))
        {
            p1 = 5;
        }
        else if (w.StartsWith("commun"))
        {
            p1 = 6;
        }
        else
        {
            p1 = RegionStart(w, 0);
        }

        p2 = p1 >= len ? len : RegionStart(w, p1);
    }

    private static int RegionStart(ReadOnlySpan<char> w, int from)
    {
        int i = from;
        while (i < w.Length && !IsVowel(w[i]))
        {
            i++;
        }

        while (i < w.Length && IsVowel(w[i]))
        {
            i++;
        }

        return i < w.Length ? i + 1 : w.Length;
    }

    // A short syllable is consonant-vowel-consonant where the last consonant is not w, x or Y,
    // or vowel-consonant at the very start of the word.
    private static bool EndsWithShortSyllable(ReadOnlySpan<char> w, int len)
    {
        if (len == 2)
        {
            return IsVowel(w[0]) && !IsVowel(w[1]);
        }

        if (len >= 3)
        {
            char last = w[len - 1];
            return !IsVowel(w[len - 3]) && IsVowel(w[len - 2]) && !IsVowel(last) && last is not ('w' or 'x' or 'Y');
        }

        return false;
    }

    private static void Step0(Span<char> w, ref int len)
    {
        if (EndsWith(w, len, "'s'"))
        {
            len -= 3;
        }
        else if (EndsWith(w, len, "'s"))
        {
            len -= 2;
        }
        else if (EndsWith(w, len, "'"))
        {
            len -= 1;
        }
    }

    private static void Step1a(Span<char> w, ref int len)
    {
        if (EndsWith(w, len, "sses"))
        {
            len -= 2;
        }
        else if (EndsWith(w, len, "ied") || EndsWith(w, len, "ies"))
        {
            // "ties" -> "tie" but "cries" -> "cri": only one letter before keeps the e.
            len -= len - 3 > 1 ? 2 : 1;
        }
        else if (EndsWith(w, len, "us") || EndsWith(w, len, "ss"))
        {
            // Not plurals: "bus", "kiss".
        }
        else if (EndsWith(w, len, "s"))
        {
            // Delete only when a vowel occurs before the letter preceding the s: "gaps" -> "gap",
            // but "gas" and "this" stay.
            if (w[..Math.Max(len - 2, 0)].IndexOfAny("aeiouy") >= 0)
            {
                len -= 1;
            }
        }
    }

    private static void Step1b(Span<char> w, ref int len, int p1)
    {
        int suffix;
        if (EndsWith(w, len, "eedly"))
        {
            suffix = 5;
        }
        else if (EndsWith(w, len, "eed"))
        {
            suffix = 3;
        }
        else
        {
            suffix = 0;
        }

        if (suffix > 0)
        {
            if (len - suffix >= p1)
            {
                Replace(w, ref len, suffix, "ee");
            }

            return;
        }

        if (EndsWith(w, len, "ingly"))
        {
            suffix = 5;
        }
        else if (EndsWith(w, len, "edly"))
        {
            suffix = 4;
        }
        else if (EndsWith(w, len, "ing"))
        {
            suffix = 3;
        }
        else if (EndsWith(w, len, "ed"))
        {
            suffix = 2;
        }
        else
        {
            return;
        }

        if (w[..(len - suffix)].IndexOfAny("aeiouy") < 0)
        {
            return;
        }

        len -= suffix;
        if (EndsWith(w, len, "at") || EndsWith(w, len, "bl") || EndsWith(w, len, "iz"))
        {
            w[len++] = 'e';
        }
        else if (len >= 2 && w[len - 1] == w[len - 2] && w[len - 1] is 'b' or 'd' or 'f' or 'g' or 'm' or 'n' or 'p' or 'r' or 't')
        {
            // Later revision of the published algorithm (reflected in Snowball's current test
            // vocabulary): a double preceded by exactly "a", "e" or "o" stays, so "added" stems
            // to "add" rather than "ad" ("egged" -> "egg", "offing" -> "off").
            if (!(len == 3 && w[0] is 'a' or 'e' or 'o'))
            {
                len--;
            }
        }
        else if (p1 >= len && EndsWithShortSyllable(w, len))
        {
            // A short word ("hop" from "hoped") gets its e back.
            w[len++] = 'e';
        }
    }

    private static void Step1c(Span<char> w, int len)
    {
        if (len >= 3 && w[len - 1] is 'y' or 'Y' && !IsVowel(w[len - 2]))
        {
            w[len - 1] = 'i';
        }
    }

    private static void Step2(Span<char> w, ref int len, int p1)
    {
        // Suffixes are tried longest first, so the first hit is the longest match; if it is not
        // in R1 the step does nothing (Snowball's `among` does not fall back to a shorter one).
        (string Suffix, string Replacement) hit = len switch
        {
            _ when EndsWith(w, len, "ational") => ("ational", "ate"),
            _ when EndsWith(w, len, "fulness") => ("fulness", "ful"),
            _ when EndsWith(w, len, "iveness") => ("iveness", "ive"),
            _ when EndsWith(w, len, "ization") => ("ization", "ize"),
            _ when EndsWith(w, len, "ousness") => ("ousness", "ous"),
            _ when EndsWith(w, len, "tional") => ("tional", "tion"),
            _ when EndsWith(w, len, "biliti") => ("biliti", "ble"),
            _ when EndsWith(w, len, "lessli") => ("lessli", "less"),
            _ when EndsWith(w, len, "entli") => ("entli", "ent"),
            _ when EndsWith(w, len, "ation") => ("ation", "ate"),
            _ when EndsWith(w, len, "alism") => ("alism", "al"),
            _ when EndsWith(w, len, "aliti") => ("aliti", "al"),
            _ when EndsWith(w, len, "ousli") => ("ousli", "ous"),
            _ when EndsWith(w, len, "iviti") => ("iviti", "ive"),
            _ when EndsWith(w, len, "fulli") => ("fulli", "ful"),
            _ when EndsWith(w, len, "enci") => ("enci", "ence"),
            _ when EndsWith(w, len, "anci") => ("anci", "ance"),
            _ when EndsWith(w, len, "abli") => ("abli", "able"),
            _ when EndsWith(w, len, "izer") => ("izer", "ize"),
            _ when EndsWith(w, len, "ator") => ("ator", "ate"),
            _ when EndsWith(w, len, "alli") => ("alli", "al"),
            _ when EndsWith(w, len, "bli") => ("bli", "ble"),
            _ when EndsWith(w, len, "ogi") => ("ogi", "og"),
            _ when EndsWith(w, len, "li") => ("li", ""),
            _ => ("", ""),
        };

        if (hit.Suffix.Length == 0 || len - hit.Suffix.Length < p1)
        {
            return;
        }

        int before = len - hit.Suffix.Length - 1;
        switch (hit.Suffix)
        {
            case "ogi" when before < 0 || w[before] != 'l':
                return;
            case "li" when before < 0 || w[before] is not ('c' or 'd' or 'e' or 'g' or 'h' or 'k' or 'm' or 'n' or 'r' or 't'):
                return;
        }

        Replace(w, ref len, hit.Suffix.Length, hit.Replacement);
    }

    private static void Step3(Span<char> w, ref int len, int p1, int p2)
    {
        (string Suffix, string Replacement) hit = len switch
        {
            _ when EndsWith(w, len, "ational") => ("ational", "ate"),
            _ when EndsWith(w, len, "tional") => ("tional", "tion"),
            _ when EndsWith(w, len, "alize") => ("alize", "al"),
            _ when EndsWith(w, len, "icate") => ("icate", "ic"),
            _ when EndsWith(w, len, "iciti") => ("iciti", "ic"),
            _ when EndsWith(w, len, "ative") => ("ative", ""),
            _ when EndsWith(w, len, "ical") => ("ical", "ic"),
            _ when EndsWith(w, len, "ness") => ("ness", ""),
            _ when EndsWith(w, len, "ful") => ("ful", ""),
            _ => ("", ""),
        };

        int at = len - hit.Suffix.Length;
        if (hit.Suffix.Length == 0 || at < p1 || (hit.Suffix == "ative" && at < p2))
        {
            return;
        }

        Replace(w, ref len, hit.Suffix.Length, hit.Replacement);
    }

    private static void Step4(Span<char> w, ref int len, int p2)
    {
        int suffix = len switch
        {
            _ when EndsWith(w, len, "ement") => 5,
            _ when EndsWith(w, len, "ance") || EndsWith(w, len, "ence") || EndsWith(w, len, "able")
                || EndsWith(w, len, "ible") || EndsWith(w, len, "ment") => 4,
            _ when EndsWith(w, len, "ant") || EndsWith(w, len, "ent") || EndsWith(w, len, "ism")
                || EndsWith(w, len, "ate") || EndsWith(w, len, "iti") || EndsWith(w, len, "ous")
                || EndsWith(w, len, "ive") || EndsWith(w, len, "ize") || EndsWith(w, len, "ion") => 3,
            _ when EndsWith(w, len, "al") || EndsWith(w, len, "er") || EndsWith(w, len, "ic") => 2,
            _ => 0,
        };

        int at = len - suffix;
        if (suffix == 0 || at < p2)
        {
            return;
        }

        if (EndsWith(w, len, "ion") && (at == 0 || w[at - 1] is not ('s' or 't')))
        {
            return;
        }

        len = at;
    }

    private static void Step5(Span<char> w, ref int len, int p1, int p2)
    {
        if (len == 0)
        {
            return;
        }

        int at = len - 1;
        if (w[at] == 'e')
        {
            if (at >= p2 || (at >= p1 && !EndsWithShortSyllable(w, at)))
            {
                len = at;
            }
        }
        else if (w[at] == 'l' && at >= p2 && at > 0 && w[at - 1] == 'l')
        {
            len = at;
        }
    }
}
