using Folio.Server.Http;

namespace Folio.Server.Databases;

/// <summary>
/// The rules for database names. A name becomes a directory under the data directory, so the rules keep
/// it a single, portable path segment; names compare case-insensitively, so the rules hold in any case.
/// </summary>
public static class DatabaseName
{
    /// <summary>Longest name accepted.</summary>
    public const int MaxLength = 128;

    // Folio's own names plus the device names Windows refuses as a file name, even with an extension.
    private static readonly string[] s_reserved =
    [
        "system",
        "con", "prn", "aux", "nul",
        "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
        "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
    ];

    /// <summary>Checks a name without allocating.</summary>
    /// <param name="name">The candidate name.</param>
    /// <returns>The first rule it breaks, or <see cref="DatabaseNameError.None"/>.</returns>
    public static DatabaseNameError Check(ReadOnlySpan<char> name)
    {
        if (name.IsEmpty)
            return DatabaseNameError.Empty;
        if (name.Length > MaxLength)
            return DatabaseNameError.TooLong;

        // ASCII only: non-ASCII letters fold case differently across file systems, and the name
        // must map to one directory however it is spelled.
        foreach (char c in name)
        {
            if (!char.IsAsciiLetterOrDigit(c) && c is not ('_' or '-' or '.'))
                return DatabaseNameError.InvalidCharacter;
        }

        if (name[0] == '.')
            return DatabaseNameError.StartsWithDot;
        if (name[^1] == '.')
            return DatabaseNameError.EndsWithDot;
        if (name.Contains("..", StringComparison.Ordinal))
            return DatabaseNameError.ContainsDoubleDot;

        int dot = name.IndexOf('.');
        ReadOnlySpan<char> stem = dot < 0 ? name : name[..dot];
        foreach (string reserved in s_reserved)
        {
            if (stem.Equals(reserved, StringComparison.OrdinalIgnoreCase))
                return DatabaseNameError.Reserved;
        }

        return DatabaseNameError.None;
    }

    /// <summary>Whether a name follows every rule.</summary>
    /// <param name="name">The candidate name.</param>
    /// <returns>True when usable.</returns>
    public static bool IsValid(ReadOnlySpan<char> name) => Check(name) == DatabaseNameError.None;

    /// <summary>Throws a 400 problem naming the broken rule, for handlers that take a name from a client.</summary>
    /// <param name="name">The candidate name.</param>
    /// <exception cref="FolioHttpException">400 when the name breaks a rule.</exception>
    public static void Validate(ReadOnlySpan<char> name)
    {
        DatabaseNameError error = Check(name);
        if (error != DatabaseNameError.None)
        {
            throw new FolioHttpException(
                StatusCodes.Status400BadRequest,
                "Invalid database name",
                Describe(error),
                ProblemTypes.InvalidDatabaseName);
        }
    }

    /// <summary>Explains a rule in words a client can act on.</summary>
    /// <param name="error">The broken rule.</param>
    /// <returns>The explanation.</returns>
    public static string Describe(DatabaseNameError error) => error switch
    {
        DatabaseNameError.None => "The name is valid.",
        DatabaseNameError.Empty => "A database name must not be empty.",
        DatabaseNameError.TooLong => $"A database name must be at most {MaxLength} characters.",
        DatabaseNameError.InvalidCharacter => "A database name may hold only ASCII letters, digits, '_', '-' and '.'.",
        DatabaseNameError.StartsWithDot => "A database name must not start with '.'.",
        DatabaseNameError.EndsWithDot => "A database name must not end with '.'.",
        DatabaseNameError.ContainsDoubleDot => "A database name must not contain '..'.",
        DatabaseNameError.Reserved => "The name is reserved (system, or a device name such as con, nul, com1 or lpt1).",
        _ => throw new ArgumentOutOfRangeException(nameof(error), error, null),
    };
}
