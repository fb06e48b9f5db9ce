using System.Text;

namespace Folio.Server.Routing;

/// <summary>
/// A parsed route template: fixed segments, <c>{name}</c> parameters that take one whole segment,
/// and at most one trailing <c>{*name}</c> catch-all (see <see cref="FolioRouter"/> for the syntax and
/// precedence). A template is kept as the fixed runs between its parameters, which is what lets the
/// router find a route with dictionary lookups instead of a scan.
/// </summary>
internal sealed class RouteTemplate
{
    /// <summary>The parameter <see cref="FolioRequest.DatabaseSpan"/> reads.</summary>
    public const string DatabaseParameter = "db";

    private RouteTemplate(string text, string shape, string[] fixedRuns, string[] parameterNames, int[] parameterSegments, bool hasCatchAll)
    {
        Text = text;
        Shape = shape;
        FixedRuns = fixedRuns;
        ParameterNames = parameterNames;
        ParameterSegments = parameterSegments;
        HasCatchAll = hasCatchAll;
        DatabaseIndex = IndexOfParameter(DatabaseParameter);
    }

    /// <summary>The template as declared.</summary>
    public string Text { get; }

    /// <summary>
    /// The template with its parameter names left out (<c>/databases/{}/docs</c>, <c>/studio/{*}</c>):
    /// templates that match the same paths have the same shape, ignoring case.
    /// </summary>
    public string Shape { get; }

    /// <summary>
    /// The fixed text before each one-segment parameter, without the '/' that precedes the parameter,
    /// then the fixed text after the last one (before the catch-all's '/' when there is one):
    /// <c>/databases/{db}/docs</c> is <c>["/databases", "/docs"]</c>, <c>/studio/{*path}</c> is <c>["/studio"]</c>.
    /// </summary>
    public string[] FixedRuns { get; }

    /// <summary>Number of one-segment parameters, i.e. <see cref="FixedRuns"/> less one.</summary>
    public int SegmentParameterCount => FixedRuns.Length - 1;

    /// <summary>Parameter names in path order, the catch-all last.</summary>
    public string[] ParameterNames { get; }

    /// <summary>For each of <see cref="ParameterNames"/>, the index of the path segment it captures (0 is the first segment).</summary>
    public int[] ParameterSegments { get; }

    /// <summary>Whether the template ends in <c>{*name}</c>.</summary>
    public bool HasCatchAll { get; }

    /// <summary>
    /// Position of <c>{db}</c> in <see cref="ParameterNames"/>, or -1; as <c>{db}</c> is never the
    /// catch-all, it is also the number of one-segment parameters before it.
    /// </summary>
    public int DatabaseIndex { get; }

    /// <summary>Position of a parameter in <see cref="ParameterNames"/>, ignoring case, or -1.</summary>
    /// <param name="name">The parameter's name, without braces.</param>
    /// <returns>The position, or -1 when the template has no such parameter.</returns>
    public int IndexOfParameter(string name)
    {
        string[] names = ParameterNames;
        for (int i = 0; i < names.Length; i++)
        {
            if (string.Equals(names[i], name, StringComparison.OrdinalIgnoreCase))
                return i;
        }

        return -1;
    }

    /// <summary>Whether another template of the same shape names its parameters alike (ignoring case).</summary>
    /// <param name="other">A template with the same <see cref="Shape"/>.</param>
    /// <returns>True when every parameter has the same name.</returns>
    public bool NamesParametersLike(RouteTemplate other)
    {
        for (int i = 0; i < ParameterNames.Length; i++)
        {
            if (!string.Equals(ParameterNames[i], other.ParameterNames[i], StringComparison.OrdinalIgnoreCase))
                return false;
        }

        return true;
    }

    /// <summary>Parses and checks a template.</summary>
    /// <param name="template">E.g. <c>/databases/{db}/indexes/{name}</c> or <c>/studio/{*path}</c>.</param>
    /// <returns>The parsed template.</returns>
    /// <exception cref="ArgumentException">The template is malformed; the message quotes it and says why.</exception>
    public static RouteTemplate Parse(string template)
    {
        if (string.IsNullOrEmpty(template) || template[0] != '/')
            throw Invalid(template, "it must start with '/'");
        if (template.Length > 1 && template[^1] == '/')
            throw Invalid(template, "it must not end with '/'");

        var shape = new StringBuilder(template.Length);
        var runs = new List<string>();
        var names = new List<string>();
        var segments = new List<int>();
        bool hasCatchAll = false;
        int runStart = 0;
        int segmentStart = 1;
        for (int segmentIndex = 0; template.Length > 1 && segmentStart <= template.Length; segmentIndex++)
        {
            int slash = template.IndexOf('/', segmentStart);
            int segmentEnd = slash < 0 ? template.Length : slash;
            ReadOnlySpan<char> segment = template.AsSpan(segmentStart, segmentEnd - segmentStart);
            if (segment.IsEmpty)
                throw Invalid(template, "it has an empty segment");
            if (hasCatchAll)
                throw Invalid(template, $"the catch-all {{*{names[^1]}}} must be the last segment");

            if (segment[0] == '{')
            {
                bool catchAll = segment.Length > 1 && segment[1] == '*';
                string name = ParameterName(template, segment, catchAll);
                if (names.Exists(n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase)))
                    throw Invalid(template, $"it names the parameter '{name}' twice");
                if (catchAll && string.Equals(name, DatabaseParameter, StringComparison.OrdinalIgnoreCase))
                    throw Invalid(template, "{db} is one database segment and cannot be a catch-all");

                // The run ends before the '/' that precedes the parameter; see FixedRuns.
                runs.Add(template[runStart..(segmentStart - 1)]);
                names.Add(name);
                segments.Add(segmentIndex);
                shape.Append('/').Append(catchAll ? "{*}" : "{}");
                hasCatchAll = catchAll;
                runStart = segmentEnd;
            }
            else
            {
                CheckFixed(template, segment);
                shape.Append('/').Append(segment);
            }

            segmentStart = segmentEnd + 1;
        }

        if (!hasCatchAll)
            runs.Add(template[runStart..]);
        if (template.Length == 1)
            shape.Append('/');

        return new RouteTemplate(template, shape.ToString(), [.. runs], [.. names], [.. segments], hasCatchAll);
    }

    private static string ParameterName(string template, ReadOnlySpan<char> segment, bool catchAll)
    {
        if (segment[^1] != '}')
            throw Invalid(template, "a parameter must be a whole segment, {name} or {*name}");
        ReadOnlySpan<char> name = segment[(catchAll ? 2 : 1)..^1];
        if (name.IsEmpty || !char.IsAsciiLetter(name[0]))
            throw Invalid(template, "a parameter name must start with a letter");
        foreach (char c in name)
        {
            if (!char.IsAsciiLetterOrDigit(c) && c != '_')
            {
                throw Invalid(
                    template,
                    $"'{c}' is not allowed in a parameter name; names are letters, digits and '_', and constraints, defaults and optional parameters are not supported");
            }
        }

        return name.ToString();
    }

    private static void CheckFixed(string template, ReadOnlySpan<char> segment)
    {
        foreach (char c in segment)
        {
            if (char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '~')
                continue;
            if (c is '{' or '}')
                throw Invalid(template, "a parameter must be a whole segment, {name} or {*name}");
            throw Invalid(template, $"'{c}' is not allowed; fixed text is letters, digits and -_.~");
        }
    }

    private static ArgumentException Invalid(string template, string reason) =>
        new($"Route template '{template}' is invalid: {reason}.", nameof(template));
}
