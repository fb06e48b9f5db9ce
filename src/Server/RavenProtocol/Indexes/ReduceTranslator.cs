using System.Text.RegularExpressions;
using Folio.Indexing.Definitions;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// Translates the common reduce forms of the seeds' system's map/reduce definitions into Folio's
/// <see cref="ReduceDefinition"/>, where the translation means the same thing: the groups are map fields, and
/// each other result field is a group's key, the sum of a map field, or the count of its entries.
/// <list type="bullet">
/// <item>JavaScript: <c>groupBy(x => x.name).aggregate(g => ({ name: g.key, count: g.values.reduce((a, b) => a + b.count, 0) }))</c>,
/// with compound keys <c>groupBy(x => ({ a: x.a, b: x.b }))</c> read as <c>g.key.a</c>.</item>
/// <item>C# query syntax: <c>from r in results group r by r.Name into g select new { Name = g.Key, Count = g.Sum(x => x.Count) }</c>,
/// with compound keys <c>group r by new { r.A, r.B }</c> read as <c>g.Key.A</c>.</item>
/// <item>C# method syntax: <c>results.GroupBy(r => r.Name).Select(g => new { … })</c>; <c>Enumerable.Sum(g, x => x.P)</c>, <c>g.Count()</c>.</item>
/// </list>
/// A map field that is the literal <c>1</c> and is summed counts the group's entries. Anything else (averages written
/// out, other constants, filters, nested reduces) is refused with the reason.
/// </summary>
public static partial class ReduceTranslator
{
    /// <summary>Translates one reduce against the fields its maps produce.</summary>
    /// <param name="reduce">The reduce's source text.</param>
    /// <param name="paths">The maps' fields: name → Folio path.</param>
    /// <param name="constants">The maps' number-literal fields: name → literal.</param>
    /// <returns>Folio's reduce.</returns>
    /// <exception cref="IndexDefinitionException">The reduce is not one of the forms Folio translates.</exception>
    public static ReduceDefinition Translate(string reduce, IReadOnlyDictionary<string, string> paths, IReadOnlyDictionary<string, string> constants)
    {
        string text = MapTranslator.StripComments(reduce).Trim().TrimEnd(';').Trim();
        var context = new Context(reduce, paths, constants);
        Match match = JavaScriptSyntax().Match(text);
        if (match.Success)
            return context.Build(match.Groups["key"].Value, match.Groups["kvar"].Value, match.Groups["gvar"].Value, Unwrap(match.Groups["body"].Value), csharp: false);
        match = QuerySyntax().Match(text);
        if (match.Success)
            return context.Build(match.Groups["key"].Value, match.Groups["kvar"].Value, match.Groups["gvar"].Value, match.Groups["body"].Value, csharp: true);
        match = MethodSyntax().Match(text);
        if (match.Success)
            return context.Build(match.Groups["key"].Value, match.Groups["kvar"].Value, match.Groups["gvar"].Value, match.Groups["body"].Value, csharp: true);
        throw context.Refuse(
            "it translates 'groupBy(x => x.k).aggregate(g => ({ k: g.key, n: g.values.reduce((a, b) => a + b.n, 0) }))', " +
            "'from r in results group r by r.K into g select new { K = g.Key, N = g.Sum(x => x.N) }' and 'results.GroupBy(r => r.K).Select(g => new { … })'");
    }

    // A function's returned object: "({ … })", "{ return { … }; }" → the object's inside; anything else as it is.
    private static string Unwrap(string body)
    {
        string text = body.Trim();
        while (text.Length >= 2 && text[0] == '(' && text[^1] == ')' && Closes(text, 0) == text.Length - 1)
            text = text[1..^1].Trim();
        Match returned = ReturnStatement().Match(text);
        if (returned.Success)
            text = returned.Groups["value"].Value.Trim().TrimEnd(';').Trim();
        while (text.Length >= 2 && text[0] == '(' && text[^1] == ')' && Closes(text, 0) == text.Length - 1)
            text = text[1..^1].Trim();
        return text.Length >= 2 && text[0] == '{' && text[^1] == '}' && Closes(text, 0) == text.Length - 1 ? text[1..^1] : text;
    }

    // Where the bracket opened at `open` closes (-1 when it does not).
    private static int Closes(string text, int open)
    {
        int depth = 0;
        for (int i = open; i < text.Length; i++)
        {
            char c = text[i];
            if (c is '"' or '\'')
            {
                i++;
                while (i < text.Length && text[i] != c)
                    i += text[i] == '\\' ? 2 : 1;
            }
            else if (c is '(' or '{' or '[')
            {
                depth++;
            }
            else if (c is ')' or '}' or ']' && --depth == 0)
            {
                return i;
            }
        }

        return -1;
    }

    private sealed class Context(string reduce, IReadOnlyDictionary<string, string> paths, IReadOnlyDictionary<string, string> constants)
    {
        public ReduceDefinition Build(string keyText, string keyVariable, string groupVariable, string body, bool csharp)
        {
            // Group key parts: the name the result reads them by (g.key / g.key.a) → the map field they are.
            Dictionary<string, string> keyParts = KeyParts(Unwrap(keyText.Trim()), keyVariable, csharp, out string? singleKey);
            string keyAccess = groupVariable + (csharp ? ".Key" : ".key");
            var groupBy = new List<GroupByField>();
            var aggregations = new List<AggregationDefinition>();
            foreach (string item in MapTranslator.SplitTopLevel(body))
            {
                string entry = item.Trim();
                if (entry.Length == 0)
                    continue;
                int separator = MapTranslator.TopLevelIndexOf(entry, csharp ? '=' : ':');
                string name;
                string expression;
                if (separator > 0 && !(csharp && separator + 1 < entry.Length && entry[separator + 1] == '>'))
                {
                    name = entry[..separator].Trim().Trim('"', '\'');
                    expression = entry[(separator + 1)..].Trim();
                }
                else
                {
                    expression = entry;
                    name = expression[(expression.LastIndexOf('.') + 1)..];
                }

                if (expression == keyAccess && singleKey is not null)
                {
                    groupBy.Add(new GroupByField(name, PathOf(singleKey)));
                }
                else if (expression.StartsWith(keyAccess + ".", StringComparison.Ordinal) && keyParts.TryGetValue(expression[(keyAccess.Length + 1)..], out string? part))
                {
                    groupBy.Add(new GroupByField(name, PathOf(part)));
                }
                else
                {
                    aggregations.Add(Aggregation(name, expression, groupVariable, csharp));
                }
            }

            if (groupBy.Count == 0)
                throw Refuse("its result does not name the group's key");
            return new ReduceDefinition(groupBy, aggregations);
        }

        private Dictionary<string, string> KeyParts(string key, string variable, bool csharp, out string? singleKey)
        {
            var parts = new Dictionary<string, string>(StringComparer.Ordinal);
            singleKey = null;
            string member = MemberOf(key, variable) ?? "";
            if (member.Length > 0)
            {
                singleKey = member;
                return parts;
            }

            string inner = csharp ? (CSharpNew().Match(key) is { Success: true } m ? m.Groups["inner"].Value : throw Refuse($"its group key '{MapTranslator.Shorten(key)}' is not a field or fields")) : key;
            foreach (string item in MapTranslator.SplitTopLevel(inner))
            {
                string entry = item.Trim();
                if (entry.Length == 0)
                    continue;
                int separator = MapTranslator.TopLevelIndexOf(entry, csharp ? '=' : ':');
                string value = separator > 0 ? entry[(separator + 1)..].Trim() : entry;
                string field = MemberOf(value, variable) ?? throw Refuse($"its group key part '{MapTranslator.Shorten(entry)}' is not a map field");
                string name = separator > 0 ? entry[..separator].Trim().Trim('"', '\'') : field;
                parts[name] = field;
            }

            if (parts.Count == 0)
                throw Refuse("its group key is empty");
            return parts;
        }

        private AggregationDefinition Aggregation(string name, string expression, string groupVariable, bool csharp)
        {
            string? field = null;
            if (!csharp && JavaScriptSum().Match(expression) is { Success: true } js && js.Groups["g"].Value == groupVariable)
            {
                string accumulator = js.Groups["acc"].Value;
                string item = js.Groups["item"].Value;
                field = (js.Groups["left"].Value, js.Groups["right"].Value) switch
                {
                    var (l, r) when l == accumulator => MemberOf(r, item),
                    var (l, r) when r == accumulator => MemberOf(l, item),
                    _ => null,
                };
            }
            else if (csharp && CSharpSum().Match(expression) is { Success: true } cs && (cs.Groups["g"].Value == groupVariable || cs.Groups["g2"].Value == groupVariable))
            {
                field = MemberOf(Cast().Replace(cs.Groups["body"].Value, "").Trim().Trim('(', ')').Trim(), cs.Groups["item"].Value);
            }
            else if (csharp && (expression == groupVariable + ".Count()" || expression == "Enumerable.Count(" + groupVariable + ")"))
            {
                return new AggregationDefinition(name, AggregationOp.Count, null);
            }

            if (field is null)
                throw Refuse($"'{MapTranslator.Shorten(expression)}' is not the group's key, a sum of a map field or a count");
            if (constants.TryGetValue(field, out string? literal))
            {
                return literal == "1"
                    ? new AggregationDefinition(name, AggregationOp.Count, null)
                    : throw Refuse($"'{name}' sums the constant {literal}; only a constant 1 (a count) is translated");
            }

            return new AggregationDefinition(name, AggregationOp.Sum, PathOf(field));
        }

        private FieldPath PathOf(string mapField)
        {
            if (!paths.TryGetValue(mapField, out string? path))
                throw Refuse($"'{mapField}' is not a field its maps produce from the documents");
            try
            {
                return FieldPath.Parse(path);
            }
            catch (FieldPathException e)
            {
                throw Refuse($"'{mapField}' has a path Folio cannot read: {e.Message}");
            }
        }

        public IndexDefinitionException Refuse(string why) =>
            new($"Folio cannot translate the reduce '{MapTranslator.Shorten(reduce)}': {why}.");
    }

    // "x.name" → "name" for the variable x; null for anything else.
    private static string? MemberOf(string expression, string variable)
    {
        string text = expression.Trim();
        return text.Length > variable.Length + 1 && text.StartsWith(variable + ".", StringComparison.Ordinal) && Identifier().IsMatch(text[(variable.Length + 1)..])
            ? text[(variable.Length + 1)..]
            : null;
    }

    [GeneratedRegex(@"^(?:\w+\s*\.\s*)?groupBy\s*\(\s*\(?\s*(?<kvar>\w+)\s*\)?\s*=>\s*(?<key>.+?)\s*\)\s*\.\s*aggregate\s*\(\s*\(?\s*(?<gvar>\w+)\s*\)?\s*=>\s*(?<body>.+)\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex JavaScriptSyntax();

    [GeneratedRegex(@"^from\s+(?<kvar>\w+)\s+in\s+results\s+group\s+\k<kvar>\s+by\s+(?<key>.+?)\s+into\s+(?<gvar>\w+)\s+select\s+new\s*\{(?<body>.*)\}$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex QuerySyntax();

    [GeneratedRegex(@"^results\s*\.\s*GroupBy\s*\(\s*\(?\s*(?<kvar>\w+)\s*\)?\s*=>\s*(?<key>.+?)\s*\)\s*\.\s*Select\s*\(\s*\(?\s*(?<gvar>\w+)\s*\)?\s*=>\s*new\s*\{(?<body>.*)\}\s*\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex MethodSyntax();

    [GeneratedRegex(@"^\{\s*return\s+(?<value>.*?)\s*;?\s*\}$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex ReturnStatement();

    [GeneratedRegex(@"^new\s*\{(?<inner>.*)\}$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex CSharpNew();

    [GeneratedRegex(@"^(?<g>\w+)\.values\.reduce\(\s*\(\s*(?<acc>\w+)\s*,\s*(?<item>\w+)\s*\)\s*=>\s*(?<left>[\w.]+)\s*\+\s*(?<right>[\w.]+)\s*,\s*0\s*\)$", RegexOptions.CultureInvariant)]
    private static partial Regex JavaScriptSum();

    [GeneratedRegex(@"^(?:(?<g>\w+)\s*\.\s*Sum\s*\(|Enumerable\s*\.\s*Sum\s*\(\s*(?<g2>\w+)\s*,)\s*\(?\s*(?<item>\w+)\s*\)?\s*=>\s*(?<body>.+)\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex CSharpSum();

    [GeneratedRegex(@"\(\s*(?:decimal|double|long|int|float)\s*\)\s*", RegexOptions.CultureInvariant)]
    private static partial Regex Cast();

    [GeneratedRegex(@"^[A-Za-z_]\w*$", RegexOptions.CultureInvariant)]
    private static partial Regex Identifier();
}
