namespace Folio.Server.Routing;

/// <summary>
/// A parsed route template: fixed text with at most one <c>{db}</c> segment. Keeping templates this
/// simple is what lets the router find a route with a dictionary lookup instead of a scan.
/// </summary>
internal sealed class RouteTemplate
{
    /// <summary>The one parameter the router captures.</summary>
    public const string DatabaseParameter = "{db}";

    private RouteTemplate(string text, string prefix, string suffix, bool hasDatabase)
    {
        Text = text;
        Prefix = prefix;
        Suffix = suffix;
        HasDatabase = hasDatabase;
    }

    /// <summary>The template as declared.</summary>
    public string Text { get; }

    /// <summary>Fixed text before <c>{db}</c> (ends with '/'), or the whole template when it has no parameter.</summary>
    public string Prefix { get; }

    /// <summary>Fixed text after <c>{db}</c> (starts with '/' or is empty); empty when there is no parameter.</summary>
    public string Suffix { get; }

    /// <summary>Whether the template captures <c>{db}</c>.</summary>
    public bool HasDatabase { get; }

    /// <summary>Parses and checks a template.</summary>
    /// <param name="template">E.g. <c>/databases/{db}/docs</c>.</param>
    /// <returns>The parsed template.</returns>
    /// <exception cref="ArgumentException">The template is malformed; the message says why.</exception>
    public static RouteTemplate Parse(string template)
    {
        if (string.IsNullOrEmpty(template) || template[0] != '/')
            throw Invalid(template, "it must start with '/'");
        if (template.Length > 1 && template[^1] == '/')
            throw Invalid(template, "it must not end with '/'");

        int parameterAt = -1;
        int segmentStart = 1;
        while (segmentStart <= template.Length && template.Length > 1)
        {
            int slash = template.IndexOf('/', segmentStart);
            int segmentEnd = slash < 0 ? template.Length : slash;
            ReadOnlySpan<char> segment = template.AsSpan(segmentStart, segmentEnd - segmentStart);
            if (segment.IsEmpty)
                throw Invalid(template, "it has an empty segment");
            if (segment.SequenceEqual(DatabaseParameter))
            {
                if (parameterAt >= 0)
                    throw Invalid(template, "it captures {db} twice");
                parameterAt = segmentStart;
            }
            else
            {
                foreach (char c in segment)
                {
                    if (!IsFixedChar(c))
                        throw Invalid(template, $"'{c}' is not allowed; only {{db}} may be a parameter and fixed text is letters, digits and -_.~");
                }
            }

            segmentStart = segmentEnd + 1;
        }

        if (parameterAt < 0)
            return new RouteTemplate(template, template, string.Empty, hasDatabase: false);
        return new RouteTemplate(
            template,
            template[..parameterAt],
            template[(parameterAt + DatabaseParameter.Length)..],
            hasDatabase: true);
    }

    private static bool IsFixedChar(char c) => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '~';

    private static ArgumentException Invalid(string template, string reason) =>
        new($"Route template '{template}' is invalid: {reason}.", nameof(template));
}
