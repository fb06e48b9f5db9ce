namespace Folio.Import;

/// <summary>The options of the commands that ask the server for one thing (<c>export</c>, <c>backup</c>, <c>restore</c>): <c>--name value</c> pairs and flags.</summary>
public sealed class ServerCommandOptions
{
    private readonly Dictionary<string, string> _values = new(StringComparer.Ordinal);
    private readonly HashSet<string> _flags = new(StringComparer.Ordinal);

    /// <summary>The server's base address (<c>--url</c>, default http://127.0.0.1:8080).</summary>
    public Uri Url { get; private set; } = new("http://127.0.0.1:8080");

    /// <summary>The value given for <paramref name="name"/> (e.g. <c>--database</c>), or null.</summary>
    public string? Value(string name) => _values.GetValueOrDefault(name);

    /// <summary>Whether the flag <paramref name="name"/> (e.g. <c>--gzip</c>) was given.</summary>
    public bool Flag(string name) => _flags.Contains(name);

    /// <summary>Reads a <c>--url</c> value: an absolute http:// or https:// address.</summary>
    /// <returns>True with <paramref name="url"/> set; otherwise <paramref name="error"/> says why.</returns>
    public static bool TryParseUrl(string value, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out Uri? url, out string error)
    {
        error = string.Empty;
        if (Uri.TryCreate(value, UriKind.Absolute, out url) && (url.Scheme == Uri.UriSchemeHttp || url.Scheme == Uri.UriSchemeHttps))
            return true;
        url = null;
        error = $"--url '{value}' is not an http:// or https:// address.";
        return false;
    }

    /// <summary>Parses <paramref name="args"/>, accepting only the named options and flags and requiring <paramref name="required"/>.</summary>
    /// <returns>True when usable; otherwise <paramref name="error"/> says why (empty for <c>--help</c>).</returns>
    public static bool TryParse(string[] args, string[] valueOptions, string[] flagOptions, string[] required, out ServerCommandOptions options, out string error)
    {
        ArgumentNullException.ThrowIfNull(args);
        options = new ServerCommandOptions();
        error = string.Empty;
        for (int i = 0; i < args.Length; i++)
        {
            string arg = args[i];
            if (arg is "--help" or "-h")
                return false;
            if (Array.IndexOf(flagOptions, arg) >= 0)
            {
                options._flags.Add(arg);
                continue;
            }

            if (arg != "--url" && Array.IndexOf(valueOptions, arg) < 0)
            {
                error = $"Unknown option {arg}.";
                return false;
            }

            if (i + 1 >= args.Length)
            {
                error = $"{arg} needs a value.";
                return false;
            }

            string value = args[++i];
            if (arg == "--url")
            {
                if (!TryParseUrl(value, out Uri? url, out error))
                    return false;
                options.Url = url;
            }
            else
            {
                options._values[arg] = value;
            }
        }

        foreach (string name in required)
        {
            if (!options._values.ContainsKey(name))
            {
                error = $"{name} is required.";
                return false;
            }
        }

        return true;
    }
}
