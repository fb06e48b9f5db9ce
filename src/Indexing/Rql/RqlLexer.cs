using System.Text;
using Folio.Indexing.Definitions;

namespace Folio.Indexing.Rql;

/// <summary>
/// Splits a query into tokens. Names joined by '.' are one token, each name bare (letters, digits, '_'
/// and '@', not starting with a digit) or single- or double-quoted, each maybe followed by <c>[]</c>:
/// all bare is an <see cref="RqlTokenKind.Identifier"/> (<c>where</c>, <c>Lines[].Product</c>), one quoted
/// name alone a <see cref="RqlTokenKind.String"/> (a value, or a field's name where the grammar names a
/// field; the parser decides), anything else with quotes a <see cref="RqlTokenKind.Path"/>
/// (<c>Address.'e-mail'</c>, <c>'Sales Lines'[].'Unit Price'</c>). Quoted text is the same everywhere: the
/// quote doubled or backslash-escaped inside, <c>\n</c>, <c>\t</c>, <c>\r</c>, and a backslash before any
/// other character is that character. <c>$name</c> is a parameter; <c>--</c> starts a comment.
/// </summary>
internal static partial class RqlLexer
{
    public static List<RqlToken> Tokenize(string text)
    {
        var tokens = new List<RqlToken>();
        var i = 0;
        while (true)
        {
            while (i < text.Length && char.IsWhiteSpace(text[i]))
                i++;
            if (i + 1 < text.Length && text[i] == '-' && text[i + 1] == '-')
            {
                while (i < text.Length && text[i] != '\n')
                    i++;
                continue;
            }
            if (i >= text.Length)
            {
                tokens.Add(new RqlToken(RqlTokenKind.End, "", i));
                return tokens;
            }
            var start = i;
            var c = text[i];
            if (c is '\'' or '"' || IsIdentifierStart(c))
            {
                tokens.Add(ReadNames(text, ref i));
            }
            else if (char.IsAsciiDigit(c) || (c == '-' && i + 1 < text.Length && char.IsAsciiDigit(text[i + 1])))
            {
                i++;
                while (i < text.Length && (char.IsAsciiDigit(text[i]) || text[i] is '.' or 'e' or 'E' || (text[i] is '+' or '-' && text[i - 1] is 'e' or 'E')))
                    i++;
                tokens.Add(new RqlToken(RqlTokenKind.Number, text[start..i], start));
            }
            else if (c == '$')
            {
                i++;
                while (i < text.Length && (char.IsLetterOrDigit(text[i]) || text[i] == '_'))
                    i++;
                if (i == start + 1)
                    throw new RqlParseException("Expected a parameter name after '$'", start);
                tokens.Add(new RqlToken(RqlTokenKind.Parameter, text[(start + 1)..i], start));
            }
            else
            {
                i++;
                switch (c)
                {
                    case '{':
                        tokens.Add(ReadScript(text, ref i, start));
                        break;
                    case '(':
                        tokens.Add(new RqlToken(RqlTokenKind.OpenParen, "(", start));
                        break;
                    case ')':
                        tokens.Add(new RqlToken(RqlTokenKind.CloseParen, ")", start));
                        break;
                    case ',':
                        tokens.Add(new RqlToken(RqlTokenKind.Comma, ",", start));
                        break;
                    case '=':
                        if (i < text.Length && text[i] == '=')
                            i++;
                        tokens.Add(new RqlToken(RqlTokenKind.Operator, "=", start));
                        break;
                    case '!' when i < text.Length && text[i] == '=':
                        i++;
                        tokens.Add(new RqlToken(RqlTokenKind.Operator, "!=", start));
                        break;
                    case '<' or '>':
                        var op = c.ToString();
                        if (i < text.Length && (text[i] == '=' || (c == '<' && text[i] == '>')))
                            op += text[i++];
                        tokens.Add(new RqlToken(RqlTokenKind.Operator, op == "<>" ? "!=" : op, start));
                        break;
                    default:
                        throw new RqlParseException($"Unexpected character '{c}' (a name holding anything but letters, digits, '_' and '@', or starting with a digit, goes in quotes, as in 'e-mail')", start);
                }
            }
        }
    }

    private static bool IsIdentifierStart(char c) => char.IsLetter(c) || c is '_' or '@';

    private static bool IsIdentifierPart(char c) => char.IsLetterOrDigit(c) || c is '_' or '@';

    /// <summary>Reads names joined by '.' from <paramref name="i"/>, which is on a quote or a letter, '_' or '@'.</summary>
    private static RqlToken ReadNames(string text, ref int i)
    {
        var start = i;
        var segments = new List<PathSegment>(1);
        var quoted = false;
        while (true)
        {
            string name;
            if (text[i] is '\'' or '"')
            {
                name = ReadString(text, ref i);
                quoted = true;
            }
            else
            {
                var nameStart = i;
                // Metadata names hold dashes (@metadata.@nested-object-types, as the seeds' system's clients project them).
                while (i < text.Length && (IsIdentifierPart(text[i]) || (text[nameStart] == '@' && text[i] == '-' && i + 1 < text.Length && char.IsLetter(text[i + 1]))))
                    i++;
                name = text[nameStart..i];
            }
            var marksArray = false;
            if (i < text.Length && text[i] == '[')
            {
                if (i + 1 >= text.Length || text[i + 1] != ']')
                    throw new RqlParseException("Expected ']' after '[' (a path steps into arrays with [] and takes no index; a name holding '[' goes in quotes)", i + 1);
                marksArray = true;
                i += 2;
            }
            segments.Add(new PathSegment(name, marksArray));
            if (i >= text.Length || text[i] != '.')
                break;
            i++;
            if (i >= text.Length || !(text[i] is '\'' or '"' || IsIdentifierPart(text[i])))
                throw new RqlParseException("Expected a name after '.' (a name holding anything but letters, digits, '_' and '@' goes in quotes)", i);
        }
        if (quoted && segments.Count == 1 && !segments[0].MarksArray)
            return new RqlToken(RqlTokenKind.String, segments[0].Name, start);
        return new RqlToken(quoted ? RqlTokenKind.Path : RqlTokenKind.Identifier, text[start..i], start, [.. segments]);
    }

    private static string ReadString(string text, ref int i)
    {
        var quote = text[i];
        var start = i++;
        var value = new StringBuilder();
        while (true)
        {
            if (i >= text.Length)
                throw new RqlParseException("Unterminated string", start);
            var c = text[i++];
            if (c == '\\' && i < text.Length)
            {
                value.Append(text[i++] switch
                {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    var other => other,
                });
                continue;
            }
            if (c == quote)
            {
                if (i < text.Length && text[i] == quote)
                {
                    value.Append(quote);
                    i++;
                    continue;
                }
                var result = value.ToString();
                // No JSON text holds one, so it could match nothing; as a field name it could not even be written back.
                if (FieldPathSyntax.IndexOfUnpairedSurrogate(result) >= 0)
                    throw new RqlParseException("The string holds an unpaired surrogate, which no JSON text holds", start);
                return result;
            }
            value.Append(c);
        }
    }
}
