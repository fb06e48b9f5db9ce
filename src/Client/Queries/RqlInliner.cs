using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Folio.Client.Queries;

/// <summary>
/// Writes parameter values into RQL text as literals, for the stream endpoint, which takes the query in the url and no
/// parameters. Values are written as JSON literals, which RQL reads (strings in double quotes with backslash escapes).
/// </summary>
internal static class RqlInliner
{
    public static string Inline(string query, IReadOnlyDictionary<string, JToken> parameters)
    {
        if (parameters.Count == 0)
            return query;
        var text = new StringBuilder(query.Length + 32);
        char quote = '\0';
        for (int i = 0; i < query.Length; i++)
        {
            char c = query[i];
            if (quote != '\0')
            {
                text.Append(c);
                if (c == '\\' && i + 1 < query.Length)
                    text.Append(query[++i]);
                else if (c == quote)
                    quote = '\0';
                continue;
            }
            if (c is '\'' or '"')
            {
                quote = c;
                text.Append(c);
                continue;
            }
            if (c == '$')
            {
                int end = i + 1;
                while (end < query.Length && (char.IsLetterOrDigit(query[end]) || query[end] == '_'))
                    end++;
                string name = query[(i + 1)..end];
                if (!parameters.TryGetValue(name, out JToken? value))
                    throw new ArgumentException($"The query uses ${name} but no value was given for it.", nameof(parameters));
                if (value is JContainer)
                    throw new NotSupportedException($"${name} is an object or array; a streamed query can only take single values.");
                text.Append(value.ToString(Formatting.None));
                i = end - 1;
                continue;
            }
            text.Append(c);
        }
        return text.ToString();
    }
}
