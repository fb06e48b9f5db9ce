using System.Globalization;
using System.Text;

namespace Folio.Indexing.Rql;

/// <summary>What a part of a <c>search()</c> text asks for.</summary>
public enum SearchTextPartKind
{
    /// <summary>Plain words, any of which may match.</summary>
    Words,

    /// <summary>One word, <c>word~</c> or <c>word~N</c>: terms within N edits (2 when not given).</summary>
    Fuzzy,

    /// <summary>A quoted phrase, <c>"two words"</c> or <c>"two words"~N</c>: the words in order, or within a slop of N.</summary>
    Phrase,

    /// <summary>One word with a <c>*</c> at its start, its end or both (<c>tech*</c>, <c>*ware</c>): terms starting, ending with or holding the rest, not analyzed.</summary>
    Wildcard,
}

/// <summary>One part of a <c>search()</c> text: its kind, its text, and its number (edits of a fuzzy word, slop of a phrase).</summary>
public sealed record SearchTextPart(SearchTextPartKind Kind, string Text, int Number);

/// <summary>
/// The syntax of a <c>search()</c> text beyond plain words, as Lucene's query parser writes it: <c>word~</c> and
/// <c>word~N</c> (N of 0, 1 or 2; 2 when not given) for fuzzy words, <c>"two words"</c> for a phrase and
/// <c>"two words"~N</c> for a phrase within a slop of N positions, <c>word*</c>, <c>*word</c> and <c>*word*</c> for terms
/// by their start, end or middle. Everything else is plain words, analyzed as before, so a text without <c>~</c>,
/// <c>"</c> or <c>*</c> means what it always meant.
/// </summary>
public static class SearchText
{
    /// <summary>
    /// The parts of <paramref name="text"/>, plain words joined into one part first; null when the text is only plain
    /// words. Errors name the position in the query: <paramref name="position"/> is where the text starts there, and
    /// <paramref name="exact"/> says whether offsets in the text add to it (a literal written without escapes) or the
    /// text came from elsewhere (a parameter), in which case errors name the position alone.
    /// </summary>
    /// <exception cref="RqlParseException">A fuzzy word's edits or a phrase's slop is not a number in range, a quote is not closed, or a '*' stands inside a word.</exception>
    public static List<SearchTextPart>? Parse(string text, int position, bool exact)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.AsSpan().IndexOfAny('~', '"', '*') < 0)
            return null;
        var parts = new List<SearchTextPart>();
        var words = new StringBuilder();
        var i = 0;
        while (i < text.Length)
        {
            if (char.IsWhiteSpace(text[i]))
            {
                i++;
                continue;
            }
            if (text[i] == '"')
            {
                var close = text.IndexOf('"', i + 1);
                if (close < 0)
                    throw Error("The phrase's quote is not closed", position, exact, i);
                var phrase = text[(i + 1)..close];
                i = close + 1;
                var slop = 0;
                if (i < text.Length && text[i] == '~')
                    slop = ReadNumber(text, ref i, position, exact, "A phrase's slop", int.MaxValue, required: true);
                parts.Add(new SearchTextPart(SearchTextPartKind.Phrase, phrase, slop));
                continue;
            }
            var start = i;
            while (i < text.Length && !char.IsWhiteSpace(text[i]) && text[i] != '"')
                i++;
            var word = text[start..i];
            if (word.Contains('*', StringComparison.Ordinal))
            {
                var core = word.Trim('*');
                if (core.Length == 0 || core.Contains('*', StringComparison.Ordinal))
                    throw Error("A '*' stands at the start or the end of a word with other characters, as in 'tech*'", position, exact, start);
                parts.Add(new SearchTextPart(SearchTextPartKind.Wildcard, word, 0));
                continue;
            }
            var tilde = word.LastIndexOf('~');
            if (tilde < 0 || !IsNumberOrNothing(word.AsSpan(tilde + 1)))
            {
                words.Append(word).Append(' ');
                continue;
            }
            if (tilde == 0)
                throw Error("A '~' follows the word it makes fuzzy, as in 'handel~'", position, exact, start);
            var at = start + tilde;
            var edits = ReadNumber(text, ref at, position, exact, "A fuzzy word's edits", Queries.FuzzyQuery.MaxSupportedEdits, required: false);
            parts.Add(new SearchTextPart(SearchTextPartKind.Fuzzy, word[..tilde], edits));
        }
        if (words.Length > 0)
            parts.Insert(0, new SearchTextPart(SearchTextPartKind.Words, words.ToString(0, words.Length - 1), 0));
        return parts;
    }

    private static bool IsNumberOrNothing(ReadOnlySpan<char> suffix)
    {
        foreach (var c in suffix)
        {
            if (!char.IsAsciiDigit(c) && c is not ('-' or '.' or '+'))
                return false;
        }
        return true;
    }

    /// <summary>Reads <c>~N</c> at <paramref name="i"/> (on the '~'); without digits, a fuzzy word's default of 2 edits.</summary>
    private static int ReadNumber(string text, ref int i, int position, bool exact, string what, int most, bool required)
    {
        var tilde = i++;
        var start = i;
        while (i < text.Length && !char.IsWhiteSpace(text[i]) && text[i] != '"')
            i++;
        var digits = text[start..i];
        if (digits.Length == 0)
        {
            if (required)
                throw Error($"{what} follows the '~' as a whole number, as in \"two words\"~3", position, exact, tilde);
            return Queries.FuzzyQuery.MaxSupportedEdits;
        }
        if (!int.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var number) || number > most)
        {
            var range = most == int.MaxValue ? "a whole number of 0 or more" : $"a whole number from 0 to {most}";
            throw Error($"{what} must be {range}, not '{digits}'", position, exact, start);
        }
        return number;
    }

    private static RqlParseException Error(string message, int position, bool exact, int offset) =>
        new(message, exact ? position + offset : position);
}
