using System.Text;

namespace Folio.Indexing.Definitions;

/// <summary>
/// Reads and writes the text of a <see cref="FieldPath"/>: names joined by '.', each bare or in single
/// or double quotes (a backslash escapes the quote and itself), each optionally followed by <c>[]</c>.
/// A bare name may hold anything but '.', '[', ']', quotes, whitespace and control characters.
/// </summary>
internal static class FieldPathSyntax
{
    /// <summary>Whether <paramref name="c"/> can only appear in a name written in quotes.</summary>
    public static bool NeedsQuotes(char c) =>
        c is '.' or '[' or ']' or '\'' or '"' || char.IsWhiteSpace(c) || char.IsControl(c);

    /// <summary>Whether <paramref name="name"/> must be written in quotes.</summary>
    public static bool NeedsQuotes(string name)
    {
        if (name.Length == 0)
            return true;
        foreach (var c in name)
        {
            if (NeedsQuotes(c))
                return true;
        }
        return false;
    }

    /// <summary>Whether a query can write <paramref name="name"/> without quotes: letters, digits, '_' and '@', not starting with a digit.</summary>
    public static bool IsQueryBare(string name)
    {
        if (name.Length == 0 || char.IsDigit(name[0]))
            return false;
        foreach (var c in name)
        {
            if (!char.IsLetterOrDigit(c) && c is not ('_' or '@'))
                return false;
        }
        return true;
    }

    /// <summary>Parses <paramref name="text"/> into its segments; throws <see cref="FieldPathException"/>.</summary>
    public static PathSegment[] Parse(string text)
    {
        if (text.Length == 0)
            throw new FieldPathException(text, 0, "The path '' is empty; a path names at least one property, as in Name or Lines[].Product.");
        var segments = new List<PathSegment>();
        var i = 0;
        while (true)
        {
            var quoted = text[i] is '\'' or '"';
            var name = quoted ? ReadQuoted(text, ref i) : ReadBare(text, ref i);
            var marksArray = false;
            if (i < text.Length && text[i] == '[')
            {
                if (i + 1 >= text.Length || text[i + 1] != ']')
                    throw Error(text, i, "has a '[' not followed by ']'", "a path steps into arrays with [] and takes no index (a name holding '[' goes in quotes)");
                marksArray = true;
                i += 2;
                if (i < text.Length && text[i] == '[')
                    throw Error(text, i, "has a second []", "one [] already walks arrays of arrays");
            }
            segments.Add(new PathSegment(name, marksArray));
            if (i == text.Length)
                return [.. segments];
            if (text[i] != '.')
            {
                var after = marksArray ? "[]" : quoted ? "a quoted name" : "a name";
                throw Error(text, i, $"has {Describe(text[i])} after {after}", "only '.' and a next name, or the end of the path, may follow");
            }
            i++;
            if (i == text.Length)
                throw Error(text, i, "ends with '.'", "a name must follow each '.'");
        }
    }

    /// <summary>
    /// The text of <paramref name="segments"/>: names bare where they can be, quoted where they must be and, when
    /// <paramref name="alsoQuote"/> is given, where it says so too (a text that still parses to the same segments).
    /// Without it the text is the canonical one.
    /// </summary>
    public static string Format(IReadOnlyList<PathSegment> segments, Func<string, bool>? alsoQuote = null)
    {
        if (segments.Count == 0)
            throw new ArgumentException("A path has at least one segment.", nameof(segments));
        var text = new StringBuilder();
        for (var i = 0; i < segments.Count; i++)
        {
            if (i > 0)
                text.Append('.');
            AppendName(text, segments[i].Name, forceQuotes: alsoQuote?.Invoke(segments[i].Name) ?? false);
            if (segments[i].MarksArray)
                text.Append("[]");
        }
        return text.ToString();
    }

    /// <summary>The index of the first unpaired surrogate in <paramref name="name"/>, or -1: no JSON property name holds one.</summary>
    public static int IndexOfUnpairedSurrogate(string name)
    {
        for (var i = 0; i < name.Length; i++)
        {
            if (!char.IsSurrogate(name[i]))
                continue;
            if (!char.IsHighSurrogate(name[i]) || i + 1 == name.Length || !char.IsLowSurrogate(name[i + 1]))
                return i;
            i++;
        }
        return -1;
    }

    /// <summary>Appends <paramref name="name"/> bare, or in quotes when it must be or <paramref name="forceQuotes"/> asks (single quotes unless only double ones spare escapes).</summary>
    public static void AppendName(StringBuilder text, string name, bool forceQuotes = false)
    {
        ArgumentNullException.ThrowIfNull(name);
        if (IndexOfUnpairedSurrogate(name) is var bad and >= 0)
            throw new ArgumentException($"The name '{name}' has an unpaired surrogate at position {bad}, which no JSON property name holds.", nameof(name));
        if (!forceQuotes && !NeedsQuotes(name))
        {
            text.Append(name);
            return;
        }
        var quote = name.Contains('\'', StringComparison.Ordinal) && !name.Contains('"', StringComparison.Ordinal) ? '"' : '\'';
        text.Append(quote);
        foreach (var c in name)
        {
            if (c == quote || c == '\\')
                text.Append('\\');
            text.Append(c);
        }
        text.Append(quote);
    }

    private static string ReadBare(string text, ref int i)
    {
        var start = i;
        while (i < text.Length && text[i] is not ('.' or '['))
        {
            var c = text[i];
            if (c == ']')
                throw Error(text, i, "has a ']' without a '['", "a name holding ']' goes in quotes");
            if (c is '\'' or '"')
                throw Error(text, i, $"has a {(c == '\'' ? "single" : "double")} quote inside a name", $"quote the whole name instead: {Suggest(text, start)}");
            if (char.IsWhiteSpace(c) || char.IsControl(c))
                throw Error(text, i, $"has {Describe(c)} in a bare name", $"write the name in quotes: {Suggest(text, start)}");
            i += SurrogateAwareLength(text, i);
        }
        if (i == start)
        {
            var problem = start == 0 ? $"starts with {Describe(text[0])}" : "has an empty segment";
            throw Error(text, i, problem, "write a name before each '.' and '[]' (an empty name is written '')");
        }
        return text[start..i];
    }

    private static string ReadQuoted(string text, ref int i)
    {
        var quote = text[i];
        var open = i++;
        StringBuilder? escaped = null;
        var runStart = i;
        while (true)
        {
            if (i == text.Length)
                throw Error(text, open, $"opens a {(quote == '\'' ? "single" : "double")} quote that is never closed", $"end the name with {quote}, and write a {quote} inside it as \\{quote}");
            var c = text[i];
            if (c == quote)
            {
                var name = escaped is null ? text[runStart..i] : escaped.Append(text, runStart, i - runStart).ToString();
                i++;
                return name;
            }
            if (c == '\\')
            {
                if (i + 1 >= text.Length || (text[i + 1] != quote && text[i + 1] != '\\'))
                    throw Error(text, i, "has a backslash that escapes neither the quote nor a backslash", $"inside {quote}…{quote} write \\{quote} for the quote and \\\\ for a backslash");
                escaped ??= new StringBuilder();
                escaped.Append(text, runStart, i - runStart).Append(text[i + 1]);
                i += 2;
                runStart = i;
                continue;
            }
            i += SurrogateAwareLength(text, i);
        }
    }

    /// <summary>The length of the character at <paramref name="i"/>: 2 for a surrogate pair, 1 otherwise; throws for an unpaired surrogate.</summary>
    private static int SurrogateAwareLength(string text, int i)
    {
        var c = text[i];
        if (!char.IsSurrogate(c))
            return 1;
        if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            return 2;
        throw Error(text, i, $"has an unpaired surrogate ({Describe(c)})", "no JSON property name holds one");
    }

    /// <summary>The name from <paramref name="start"/> to the next '.' or '[' written as it should be, for an error's advice.</summary>
    private static string Suggest(string text, int start)
    {
        var end = text.IndexOfAny(['.', '['], start);
        var name = end < 0 ? text[start..] : text[start..end];
        if (IndexOfUnpairedSurrogate(name) >= 0)
            return "'…'";
        var suggestion = new StringBuilder();
        AppendName(suggestion, name);
        return suggestion.ToString();
    }

    private static string Describe(char c) => c switch
    {
        ' ' => "a space",
        _ when char.IsWhiteSpace(c) => $"whitespace (U+{(int)c:X4})",
        _ when char.IsControl(c) || char.IsSurrogate(c) => $"U+{(int)c:X4}",
        _ => $"'{c}'",
    };

    private static FieldPathException Error(string text, int position, string problem, string advice) =>
        new(text, position, $"The path '{text}' {problem} at position {position}; {advice}.");
}
