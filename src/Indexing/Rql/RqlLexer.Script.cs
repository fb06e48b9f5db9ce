namespace Folio.Indexing.Rql;

/// <summary>JavaScript blocks: read whole, as text, so the query grammar never has to understand JavaScript.</summary>
internal static partial class RqlLexer
{
    /// <summary>
    /// Reads from the '{' at <paramref name="start"/> to its matching '}', skipping braces inside strings, template
    /// literals and comments; the token's text is the block with its braces.
    /// </summary>
    private static RqlToken ReadScript(string text, ref int i, int start)
    {
        var depth = 1;
        while (i < text.Length)
        {
            var c = text[i++];
            switch (c)
            {
                case '{':
                    depth++;
                    break;
                case '}':
                    if (--depth == 0)
                        return new RqlToken(RqlTokenKind.Script, text[start..i], start);
                    break;
                case '\'' or '"' or '`':
                    while (i < text.Length && text[i] != c)
                        i += text[i] == '\\' ? 2 : 1;
                    i++;
                    break;
                case '/' when i < text.Length && text[i] == '/':
                    while (i < text.Length && text[i] != '\n')
                        i++;
                    break;
                case '/' when i < text.Length && text[i] == '*':
                    var close = text.IndexOf("*/", i + 1, StringComparison.Ordinal);
                    i = close < 0 ? text.Length : close + 2;
                    break;
            }
        }
        throw new RqlParseException("Unterminated JavaScript block: '{' has no matching '}'", start);
    }
}
