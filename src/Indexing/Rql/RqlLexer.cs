using System.Text;

namespace Folio.Indexing.Rql;

/// <summary>
/// Splits a query into tokens. Identifiers take letters, digits, '_', '@', '.', and '[]' (field paths
/// like <c>Lines[].Product</c> are one token); strings are single- or double-quoted with the quote
/// doubled or backslash-escaped inside; <c>$name</c> is a parameter.
/// </summary>
internal static class RqlLexer
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
            if (c is '\'' or '"')
            {
                tokens.Add(new RqlToken(RqlTokenKind.String, ReadString(text, ref i), start));
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
            else if (IsIdentifierStart(c))
            {
                while (i < text.Length && (IsIdentifierPart(text[i]) || (text[i] == '[' && i + 1 < text.Length && text[i + 1] == ']')))
                    i += text[i] == '[' ? 2 : 1;
                tokens.Add(new RqlToken(RqlTokenKind.Identifier, text[start..i], start));
            }
            else
            {
                i++;
                switch (c)
                {
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
                        throw new RqlParseException($"Unexpected character '{c}'", start);
                }
            }
        }
    }

    private static bool IsIdentifierStart(char c) => char.IsLetter(c) || c is '_' or '@';

    private static bool IsIdentifierPart(char c) => char.IsLetterOrDigit(c) || c is '_' or '@' or '.';

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
                return value.ToString();
            }
            value.Append(c);
        }
    }
}
