using System.Globalization;
using System.Text;

namespace Folio.Indexing.Rql;

/// <summary>
/// Lucene's classic query syntax, as the seeds' <c>lucene(field, 'text')</c> (their clients' <c>WhereLucene</c>) takes it:
/// words, <c>"phrases"~slop</c>, <c>wild*cards?</c>, <c>fuzzy~</c> words, <c>field:</c> prefixes (also before a group),
/// <c>[a TO b]</c> and <c>{a TO b}</c> ranges with <c>*</c> for an open end, <c>^boost</c>, <c>+</c>, <c>-</c>, <c>!</c>,
/// <c>AND</c>, <c>OR</c>, <c>NOT</c>, <c>&amp;&amp;</c>, <c>||</c>, parentheses and backslash escapes. Clauses combine
/// as that parser combines them with OR as the default operator: <c>AND</c> makes both its sides required.
/// </summary>
public sealed class LuceneSyntax
{
    /// <summary>How deep parentheses may nest, so a hostile text cannot exhaust the stack.</summary>
    public const int MaxNesting = 64;

    /// <summary>The most clauses one group may have, as Lucene's own limit on a boolean query.</summary>
    public const int MaxClauses = 1024;

    private readonly string _text;
    private readonly int _position;
    private readonly bool _exact;
    private int _at;
    private int _nesting;

    private LuceneSyntax(string text, int position, bool exact)
    {
        _text = text;
        _position = position;
        _exact = exact;
    }

    /// <summary>
    /// Parses <paramref name="text"/>. Errors name the position in the query: <paramref name="position"/> is where the text
    /// starts there, and <paramref name="exact"/> says whether offsets in the text add to it (a literal) or not (a parameter).
    /// </summary>
    /// <exception cref="RqlParseException">The text is empty or does not follow the syntax.</exception>
    public static LuceneNode Parse(string text, int position, bool exact)
    {
        ArgumentNullException.ThrowIfNull(text);
        var parser = new LuceneSyntax(text, position, exact);
        var node = parser.ParseGroup(null);
        parser.SkipSpace();
        if (parser._at < text.Length)
            throw parser.Error(text[parser._at] == ')' ? "A ')' closes no '('" : $"Unexpected '{text[parser._at]}'");
        return node;
    }

    private LuceneNode ParseGroup(string? field)
    {
        if (++_nesting > MaxNesting)
            throw Error($"Parentheses nest deeper than {MaxNesting}");
        var clauses = new List<(LuceneOccur Occur, LuceneNode Node)>();
        while (true)
        {
            SkipSpace();
            if (_at >= _text.Length || _text[_at] == ')')
                break;
            var operatorAt = _at;
            var and = TakeWord("AND") || TakeSymbol("&&");
            var or = !and && (TakeWord("OR") || TakeSymbol("||"));
            if ((and || or) && clauses.Count == 0)
                throw Error($"{(and ? "AND" : "OR")} needs a clause before it", operatorAt);
            SkipSpace();
            if ((and || or) && (TakeWord("AND") || TakeWord("OR") || TakeSymbol("&&") || TakeSymbol("||")))
                throw Error("Two operators in a row", operatorAt);
            if (clauses.Count == MaxClauses)
                throw Error($"A group has more than {MaxClauses} clauses");
            var occur = and ? LuceneOccur.Must : LuceneOccur.Should;
            if (TakeSymbol("+"))
                occur = LuceneOccur.Must;
            else if (TakeSymbol("-") || TakeSymbol("!") || TakeWord("NOT"))
                occur = LuceneOccur.MustNot;
            // AND makes the clause before it required too, unless that one is excluded.
            if (and && clauses[^1].Occur == LuceneOccur.Should)
                clauses[^1] = (LuceneOccur.Must, clauses[^1].Node);
            clauses.Add((occur, ParseClause(field)));
        }
        _nesting--;
        if (clauses.Count == 0)
            throw Error(_at >= _text.Length ? "The query is empty" : _nesting == 0 ? "A ')' closes no '('" : "Empty parentheses");
        return clauses is [{ Occur: not LuceneOccur.MustNot } only] ? only.Node : new LuceneGroup(clauses);
    }

    private LuceneNode ParseClause(string? field, bool afterField = false)
    {
        SkipSpace();
        if (_at >= _text.Length)
            throw Error("A clause is missing at the end");
        LuceneNode node;
        switch (_text[_at])
        {
            case '(':
                _at++;
                node = ParseGroup(field);
                if (_at >= _text.Length || _text[_at] != ')')
                    throw Error("A '(' is not closed");
                _at++;
                break;
            case '[' or '{':
                node = ParseRange(field);
                break;
            case '"':
                node = ParsePhrase(field);
                break;
            case ')' or ']' or '}' or '^' or '~' or ':':
                throw Error($"Unexpected '{_text[_at]}'");
            default:
                var start = _at;
                var (word, wildcard) = ReadWord();
                if (_at < _text.Length && _text[_at] == ':')
                {
                    if (word.Length == 0 || (wildcard && word != "*"))
                        throw Error("A field name is missing before ':'", start);
                    if (afterField)
                        throw Error("A field name follows another ('a:b:c')", start);
                    _at++;
                    if (word == "*")
                    {
                        var (all, _) = ReadWord();
                        if (all != "*")
                            throw Error("'*:' takes '*' (every entry)", start);
                        node = new LuceneTerm(null, "*", LuceneTermKind.MatchAll, 0);
                        break;
                    }
                    return ParseClause(word, afterField: true);
                }
                if (word.Length == 0)
                    throw Error($"Unexpected '{_text[_at]}'", start);
                node = wildcard ? new LuceneTerm(field, word, LuceneTermKind.Wildcard, 0) : ParseFuzzy(field, word);
                break;
        }
        return ParseBoost(node);
    }

    private LuceneNode ParseFuzzy(string? field, string word)
    {
        if (_at >= _text.Length || _text[_at] != '~')
            return new LuceneTerm(field, word, LuceneTermKind.Word, 0);
        var at = _at++;
        var number = ReadNumber();
        if (number is null)
            return new LuceneTerm(field, word, LuceneTermKind.Fuzzy, 2);
        if (!(number is > 0 and < 1 || number is 0 or 1 or 2))
            throw Error("A fuzzy word takes a similarity between 0 and 1 or a number of edits from 0 to 2", at);
        return new LuceneTerm(field, word, LuceneTermKind.Fuzzy, number.Value);
    }

    private LuceneTerm ParsePhrase(string? field)
    {
        var start = _at++;
        var phrase = new StringBuilder();
        while (_at < _text.Length && _text[_at] != '"')
        {
            if (_text[_at] == '\\' && _at + 1 < _text.Length)
                _at++;
            phrase.Append(_text[_at++]);
        }
        if (_at >= _text.Length)
            throw Error("The phrase's quote is not closed", start);
        _at++;
        var slop = 0;
        if (_at < _text.Length && _text[_at] == '~')
        {
            var at = _at++;
            if (ReadNumber() is not { } number || number < 0 || number > int.MaxValue || number != Math.Floor(number))
                throw Error("A phrase's slop is a whole number of 0 or more", at);
            slop = (int)number;
        }
        return new LuceneTerm(field, phrase.ToString(), LuceneTermKind.Phrase, slop);
    }

    private LuceneRange ParseRange(string? field)
    {
        var start = _at;
        var lowerInclusive = _text[_at++] == '[';
        var lower = ReadBound(start);
        SkipSpace();
        if (!TakeWord("TO"))
            throw Error("A range is written [a TO b]", start);
        var upper = ReadBound(start);
        SkipSpace();
        if (_at >= _text.Length || _text[_at] is not (']' or '}'))
            throw Error("A range is closed by ']' or '}'", start);
        var upperInclusive = _text[_at++] == ']';
        return new LuceneRange(field, lower, lowerInclusive, upper, upperInclusive);
    }

    /// <summary>A range's bound: a word or a quoted text; null for <c>*</c> (open).</summary>
    private string? ReadBound(int rangeStart)
    {
        SkipSpace();
        if (_at < _text.Length && _text[_at] == '"')
            return ParsePhrase(null).Text;
        // A bound ends only at a space or the range's end, so dates and times need no escapes ([2020-01-01T00:00:00 TO *]).
        var bound = new StringBuilder();
        var start = _at;
        while (_at < _text.Length && !char.IsWhiteSpace(_text[_at]) && _text[_at] is not (']' or '}'))
        {
            if (_text[_at] == '\\' && _at + 1 < _text.Length)
                _at++;
            bound.Append(_text[_at++]);
        }
        if (bound.Length == 0)
            throw Error("A range's bound is missing", rangeStart);
        return _at - start == 1 && bound[0] == '*' ? null : bound.ToString();
    }

    private LuceneNode ParseBoost(LuceneNode node)
    {
        if (_at >= _text.Length || _text[_at] != '^')
            return node;
        var at = _at++;
        if (ReadNumber() is not { } factor || !(factor > 0 && factor <= float.MaxValue))
            throw Error("A boost is a number greater than 0", at);
        return new LuceneBoost(node, (float)factor);
    }

    /// <summary>A word up to a space or a character of the syntax, escapes resolved; whether it has an unescaped '*' or '?'.</summary>
    private (string Word, bool Wildcard) ReadWord()
    {
        var word = new StringBuilder();
        var wildcard = false;
        var escapedWildcard = false;
        while (_at < _text.Length)
        {
            var c = _text[_at];
            if (char.IsWhiteSpace(c) || c is '(' or ')' or '[' or ']' or '{' or '}' or '"' or '^' or '~' or ':')
                break;
            if (c == '\\')
            {
                if (_at + 1 >= _text.Length)
                    throw Error("A '\\' at the end escapes nothing");
                escapedWildcard |= _text[_at + 1] is '*' or '?';
                word.Append(_text[_at + 1]);
                _at += 2;
                continue;
            }
            wildcard |= c is '*' or '?';
            word.Append(c);
            _at++;
        }
        // A pattern has no escapes of its own, so a literal '*' or '?' in one could not be told from a wildcard.
        if (wildcard && escapedWildcard)
            throw Error("A wildcard term cannot also hold an escaped '*' or '?'");
        return (word.ToString(), wildcard);
    }

    private double? ReadNumber()
    {
        var start = _at;
        while (_at < _text.Length && (char.IsAsciiDigit(_text[_at]) || _text[_at] == '.'))
            _at++;
        if (_at == start)
            return null;
        return double.TryParse(_text.AsSpan(start, _at - start), NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var number)
            ? number
            : throw Error($"'{_text[start.._at]}' is not a number", start);
    }

    /// <summary>Takes an operator word (upper case, as Lucene writes it) when a space, a quote or a parenthesis follows it.</summary>
    private bool TakeWord(string word)
    {
        if (string.CompareOrdinal(_text, _at, word, 0, word.Length) != 0)
            return false;
        var end = _at + word.Length;
        if (end < _text.Length && !char.IsWhiteSpace(_text[end]) && _text[end] is not ('(' or '"' or '[' or '{'))
            return false;
        _at = end;
        return true;
    }

    private bool TakeSymbol(string symbol)
    {
        if (string.CompareOrdinal(_text, _at, symbol, 0, symbol.Length) != 0)
            return false;
        _at += symbol.Length;
        return true;
    }

    private void SkipSpace()
    {
        while (_at < _text.Length && char.IsWhiteSpace(_text[_at]))
            _at++;
    }

    private RqlParseException Error(string message, int? at = null) =>
        new($"lucene(): {message}", _exact ? _position + (at ?? _at) : _position);
}
