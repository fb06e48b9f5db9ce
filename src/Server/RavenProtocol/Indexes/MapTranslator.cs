using System.Text;
using Folio.Indexing.Definitions;
using Folio.Indexing.Documents;
using Folio.Indexing.Spatial;
using System.Text.RegularExpressions;

namespace Folio.Server.RavenProtocol.Indexes;

/// <summary>
/// Translates the common map forms of the seeds' system's index definitions into Folio fields, where the
/// translation means the same thing: each output field is a document's value at a path.
/// <list type="bullet">
/// <item>C# query syntax: <c>from u in docs.Users select new { u.Name, City = u.Address.City, Products = u.Lines.Select(l => l.Product) }</c></item>
/// <item>C# method syntax: <c>docs.Users.Select(u => new { … })</c>; <c>docs</c> without a collection reads every document</item>
/// <item>JavaScript: <c>map('Users', u => ({ name: u.name }))</c>, <c>map('Users', function (u) { return { name: u.name }; })</c></item>
/// </list>
/// Anything else (filters, computed values, loads, nested <c>from</c>, fan-out) is refused with the reason,
/// never approximated: an index that answers differently from the one written would be worse than none.
/// </summary>
public static partial class MapTranslator
{
    /// <summary>Translates one map.</summary>
    /// <param name="map">The map's source text.</param>
    /// <returns>The collection and fields.</returns>
    /// <exception cref="IndexDefinitionException">The map is not one of the forms Folio translates.</exception>
    public static MapTranslation Translate(string map)
    {
        string text = StripComments(map).Trim().TrimEnd(';').Trim();
        Match match = QuerySyntax().Match(text);
        if (match.Success)
            return Build(map, Collection(match.Groups["collection"].Value), match.Groups["var"].Value, match.Groups["body"].Value, csharp: true);
        match = MethodSyntax().Match(text);
        if (match.Success)
            return Build(map, Collection(match.Groups["collection"].Value), match.Groups["var"].Value, match.Groups["body"].Value, csharp: true);
        match = JavaScriptSyntax().Match(text);
        if (match.Success)
            return Build(map, match.Groups["collection"].Value, match.Groups["var"].Value, match.Groups["body"].Value, csharp: false);
        throw new IndexDefinitionException(
            $"Folio cannot translate the map '{Shorten(map)}': it translates maps that select a document's values by path, " +
            "written as 'from d in docs.Coll select new { d.A, B = d.C.D }', 'docs.Coll.Select(d => new { … })' or " +
            "\"map('Coll', d => ({ a: d.a }))\"; filters, computed values, LoadDocument and nested from are not translated.");
    }

    private static MapTranslation Build(string map, string collection, string variable, string body, bool csharp)
    {
        var fields = new List<KeyValuePair<string, string>>();
        var constants = new List<KeyValuePair<string, string>>();
        var spatial = new List<KeyValuePair<string, SpatialSource>>();
        foreach (string item in SplitTopLevel(body))
        {
            string entry = item.Trim();
            if (entry.Length == 0)
                continue;
            string name;
            string expression;
            int separator = csharp ? TopLevelIndexOf(entry, '=') : TopLevelIndexOf(entry, ':');
            if (separator > 0 && !(csharp && separator + 1 < entry.Length && entry[separator + 1] == '>'))
            {
                name = entry[..separator].Trim().Trim('"', '\'');
                expression = entry[(separator + 1)..].Trim();
            }
            else
            {
                name = "";
                expression = entry;
            }

            if (name.Length > 0 && NumberLiteral().IsMatch(expression))
            {
                if (!IdentifierName().IsMatch(name))
                    throw new IndexDefinitionException($"Folio cannot translate the field '{Shorten(entry)}' of the map '{Shorten(map)}': its name is not a plain name.");
                constants.Add(new KeyValuePair<string, string>(name, expression));
                continue;
            }

            if (SpatialCall().Match(expression) is { Success: true } call)
            {
                if (!IdentifierName().IsMatch(name))
                    throw new IndexDefinitionException($"Folio cannot translate the field '{Shorten(entry)}' of the map '{Shorten(map)}': a spatial field needs a plain name.");
                spatial.Add(new KeyValuePair<string, SpatialSource>(name, SpatialSourceOf(map, variable, expression, call.Groups["args"].Value, csharp)));
                continue;
            }

            string path = Path(map, variable, expression, csharp);
            if (name.Length == 0)
                name = path[(path.LastIndexOf('.') + 1)..].Replace("[]", "", StringComparison.Ordinal);
            if (!IdentifierName().IsMatch(name))
                throw new IndexDefinitionException($"Folio cannot translate the field '{Shorten(entry)}' of the map '{Shorten(map)}': its name is not a plain name.");
            fields.Add(new KeyValuePair<string, string>(name, path));
        }

        if (fields.Count == 0 && spatial.Count == 0)
            throw new IndexDefinitionException($"Folio cannot translate the map '{Shorten(map)}': it selects no fields.");
        return new MapTranslation(collection, fields, constants) { Spatial = spatial };
    }

    // createSpatialField(d.Lat, d.Lng): points from two paths; createSpatialField(d.Wkt): WKT points from one.
    private static SpatialSource SpatialSourceOf(string map, string variable, string expression, string arguments, bool csharp)
    {
        List<string> parts = SplitTopLevel(arguments);
        try
        {
            return parts.Count switch
            {
                1 => SpatialSource.FromWkt(FieldPath.Parse(Path(map, variable, parts[0].Trim(), csharp))),
                2 => SpatialSource.Point(FieldPath.Parse(Path(map, variable, parts[0].Trim(), csharp)), FieldPath.Parse(Path(map, variable, parts[1].Trim(), csharp))),
                _ => throw Untranslatable(map, expression),
            };
        }
        catch (FieldPathException)
        {
            throw Untranslatable(map, expression);
        }
    }

    // A path from the map's variable, maybe boosted (boosting changes scores only; Folio does not apply it), maybe
    // stepping into an array with .Select(x => x.P) (C#) or .map(x => x.p) (JavaScript).
    private static string Path(string map, string variable, string expression, bool csharp)
    {
        string text = Boost().Replace(expression, "");
        Match match = ArrayStep().Match(text);
        string? inner = null;
        if (match.Success)
        {
            text = match.Groups["outer"].Value;
            string innerVariable = match.Groups["ivar"].Value;
            string innerPath = match.Groups["ipath"].Value;
            if (!innerPath.StartsWith(innerVariable + ".", StringComparison.Ordinal) || (csharp ? match.Groups["method"].Value != "Select" : match.Groups["method"].Value != "map"))
                throw Untranslatable(map, expression);
            inner = innerPath[(innerVariable.Length + 1)..];
        }

        if (!text.StartsWith(variable + ".", StringComparison.Ordinal) || !DottedPath().IsMatch(text))
            throw Untranslatable(map, expression);
        string path = text[(variable.Length + 1)..];
        return inner is null ? path : path + "[]." + inner;
    }

    /// <summary>The refusal of an expression a map gives a field.</summary>
    internal static IndexDefinitionException Untranslatable(string map, string expression) => new(
        $"Folio cannot translate '{Shorten(expression)}' in the map '{Shorten(map)}': a field must be the document's value at a path " +
        "(d.A.B, or d.Items.Select(i => i.P) into an array); computed values need the JavaScript index support that Jint scripting brings.");

    private static string Collection(string written)
    {
        // docs.Users, docs["Users"], docs.@Users; docs alone is every document.
        string name = written.Trim();
        if (name.Length == 0)
            return CollectionScope.AllDocuments;
        if (name.StartsWith('['))
            name = name[1..^1].Trim().Trim('"', '\'');
        return name.TrimStart('@');
    }

    /// <summary>Drops <c>//</c> comments.</summary>
    internal static string StripComments(string text)
    {
        var result = new StringBuilder(text.Length);
        foreach (string line in text.Split('\n'))
        {
            int comment = line.IndexOf("//", StringComparison.Ordinal);
            result.Append(comment >= 0 ? line[..comment] : line).Append('\n');
        }

        return result.ToString();
    }

    /// <summary>Splits <paramref name="body"/> at its commas outside brackets and strings.</summary>
    internal static List<string> SplitTopLevel(string body)
    {
        var items = new List<string>();
        int depth = 0;
        int start = 0;
        char quote = '\0';
        for (int i = 0; i < body.Length; i++)
        {
            char c = body[i];
            if (quote != '\0')
            {
                if (c == '\\')
                    i++;
                else if (c == quote)
                    quote = '\0';
                continue;
            }

            switch (c)
            {
                case '"' or '\'':
                    quote = c;
                    break;
                case '(' or '{' or '[':
                    depth++;
                    break;
                case ')' or '}' or ']':
                    depth--;
                    break;
                case ',' when depth == 0:
                    items.Add(body[start..i]);
                    start = i + 1;
                    break;
            }
        }

        items.Add(body[start..]);
        return items;
    }

    /// <summary>The first <paramref name="wanted"/> outside brackets and strings, or -1.</summary>
    internal static int TopLevelIndexOf(string text, char wanted)
    {
        int depth = 0;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i];
            if (c is '(' or '{' or '[')
                depth++;
            else if (c is ')' or '}' or ']')
                depth--;
            else if (c is '"' or '\'')
                i = SkipString(text, i);
            else if (c == wanted && depth == 0)
                return i;
        }

        return -1;
    }

    // From an opening quote to its closing one (or the end), past escapes.
    private static int SkipString(string text, int open)
    {
        int i = open + 1;
        while (i < text.Length && text[i] != text[open])
            i += text[i] == '\\' ? 2 : 1;
        return i;
    }

    /// <summary>The text on one line, cut to 160 characters.</summary>
    internal static string Shorten(string text)
    {
        string flat = Whitespace().Replace(text, " ").Trim();
        return flat.Length <= 160 ? flat : flat[..157] + "...";
    }

    [GeneratedRegex(@"^from\s+(?<var>\w+)\s+in\s+docs\s*(?:\.\s*(?<collection>@?\w+)|(?<collection>\[\s*""[^""]+""\s*\]))?\s+select\s+new\s*\{(?<body>.*)\}$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex QuerySyntax();

    [GeneratedRegex(@"^docs\s*(?:\.\s*(?<collection>@?\w+)|(?<collection>\[\s*""[^""]+""\s*\]))?\s*\.\s*Select\s*\(\s*\(?\s*(?<var>\w+)\s*\)?\s*=>\s*new\s*\{(?<body>.*)\}\s*\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex MethodSyntax();

    [GeneratedRegex(@"^map\s*\(\s*(?<q>['""])(?<collection>[^'""]+)\k<q>\s*,\s*(?:function\s*\(\s*(?<var>\w+)\s*\)\s*\{\s*return\s*\{(?<body>.*)\}\s*;?\s*\}|\(?\s*(?<var>\w+)\s*\)?\s*=>\s*(?:\(\s*\{(?<body>.*)\}\s*\)|\{\s*return\s*\{(?<body>.*)\}\s*;?\s*\}))\s*\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex JavaScriptSyntax();

    [GeneratedRegex(@"^(?:createSpatialField|CreateSpatialField)\s*\((?<args>.*)\)$", RegexOptions.Singleline | RegexOptions.CultureInvariant)]
    private static partial Regex SpatialCall();

    [GeneratedRegex(@"\s*\.\s*Boost\s*\(\s*[0-9.]+\s*\)\s*$", RegexOptions.CultureInvariant)]
    private static partial Regex Boost();

    [GeneratedRegex(@"^(?<outer>[\w.]+)\s*\.\s*(?<method>Select|map)\s*\(\s*\(?\s*(?<ivar>\w+)\s*\)?\s*=>\s*(?<ipath>[\w.]+)\s*\)$", RegexOptions.CultureInvariant)]
    private static partial Regex ArrayStep();

    [GeneratedRegex(@"^\w+(\.\w+)+$", RegexOptions.CultureInvariant)]
    private static partial Regex DottedPath();

    [GeneratedRegex(@"^-?[0-9]+(\.[0-9]+)?$", RegexOptions.CultureInvariant)]
    private static partial Regex NumberLiteral();

    [GeneratedRegex(@"^[A-Za-z_]\w*$", RegexOptions.CultureInvariant)]
    private static partial Regex IdentifierName();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}
