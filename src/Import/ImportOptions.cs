namespace Folio.Import;

/// <summary>What to import where, parsed from the command line.</summary>
public sealed class ImportOptions
{
    /// <summary>The help text.</summary>
    public const string Usage = """
        Usage: folio-import --url URL --database NAME [--id-prefix PREFIX] [--gzip] FILE...
               folio-import --url URL --database NAME --from-export FILE
               folio-import export|backup|restore ...   (folio-import export --help)
          FILE            newline-delimited JSON (one document per line) or a JSON array of documents
          --url           the Folio server, e.g. http://127.0.0.1:8080 (default)
          --database      the database to import into (it must exist)
          --id-prefix     documents without an "@id" or "Id" property get server-made ids under this prefix, e.g. users/
          --gzip          compress the stream (Content-Encoding: gzip)
          --from-export   FILE is an export (from 'folio-import export' or GET /databases/{db}/export, .gz or not):
                          its documents and static index definitions go through the server's import endpoint
        """;

    /// <summary>The server's base address.</summary>
    public Uri Url { get; private set; } = new("http://127.0.0.1:8080");

    /// <summary>The database name.</summary>
    public string Database { get; private set; } = string.Empty;

    /// <summary>Prefix for server-made ids, ending in '/' or '|'; null when every document must carry its id.</summary>
    public string? IdPrefix { get; private set; }

    /// <summary>Whether to gzip the body.</summary>
    public bool Gzip { get; private set; }

    /// <summary>Whether the one file is an export, sent as it is to the server's import endpoint.</summary>
    public bool FromExport { get; private set; }

    /// <summary>The files, in order.</summary>
    public List<string> Files { get; } = [];

    /// <summary>Parses <paramref name="args"/>.</summary>
    /// <param name="args">The command line.</param>
    /// <param name="options">The options when valid.</param>
    /// <param name="error">What is wrong otherwise (empty for <c>--help</c>).</param>
    /// <returns>True when the options are usable.</returns>
    public static bool TryParse(string[] args, out ImportOptions options, out string error)
    {
        ArgumentNullException.ThrowIfNull(args);
        options = new ImportOptions();
        error = string.Empty;
        for (int i = 0; i < args.Length; i++)
        {
            string arg = args[i];
            switch (arg)
            {
                case "--help" or "-h":
                    return false;
                case "--gzip":
                    options.Gzip = true;
                    break;
                case "--from-export":
                    options.FromExport = true;
                    break;
                case "--url" or "--database" or "--id-prefix":
                    if (i + 1 >= args.Length)
                    {
                        error = $"{arg} needs a value.";
                        return false;
                    }

                    string value = args[++i];
                    if (arg == "--url")
                    {
                        if (!ServerCommandOptions.TryParseUrl(value, out Uri? url, out error))
                            return false;
                        options.Url = url;
                    }
                    else if (arg == "--database")
                    {
                        options.Database = value;
                    }
                    else
                    {
                        // The server makes an id for an id ending in '/' or '|'; a bare prefix means the first.
                        options.IdPrefix = value.EndsWith('/') || value.EndsWith('|') ? value : value + "/";
                    }

                    break;
                default:
                    if (arg.StartsWith("--", StringComparison.Ordinal))
                    {
                        error = $"Unknown option {arg}.";
                        return false;
                    }

                    options.Files.Add(arg);
                    break;
            }
        }

        if (options.Database.Length == 0)
            error = "--database is required.";
        else if (options.Files.Count == 0)
            error = "Name at least one file to import.";
        else if (options.FromExport && (options.Files.Count > 1 || options.IdPrefix is not null || options.Gzip))
            error = "--from-export takes one file, and neither --id-prefix nor --gzip (a .gz export is sent as it is).";
        else
        {
            foreach (string file in options.Files)
            {
                if (!File.Exists(file))
                {
                    error = $"No such file: {file}";
                    break;
                }
            }
        }

        return error.Length == 0;
    }
}
