using System.Globalization;
using System.Net;

namespace Folio.Client.Exceptions;

/// <summary>
/// A query the server could not parse or run (400 <c>invalid-query</c>, 404 <c>index-not-found</c>). When the server
/// names where parsing stopped, <see cref="Position"/>, <see cref="Line"/> and <see cref="Column"/> say where in <see cref="Query"/>.
/// </summary>
public sealed class QueryException : FolioException
{
    /// <summary>Creates the exception from the server's problem details and the query sent.</summary>
    public QueryException(HttpStatusCode status, string? problemType, string? title, string? detail, string query)
        : base(status, problemType, title, detail)
    {
        Query = query;
        Position = ParsePosition(detail);
        if (Position is int position)
        {
            (int line, int column) = LineAndColumn(query, position);
            Line = line;
            Column = column;
        }
    }

    /// <summary>The RQL sent.</summary>
    public string Query { get; }

    /// <summary>The character offset in <see cref="Query"/> where the server stopped, when it said.</summary>
    public int? Position { get; }

    /// <summary>The 1-based line of <see cref="Position"/>.</summary>
    public int? Line { get; }

    /// <summary>The 1-based column of <see cref="Position"/>.</summary>
    public int? Column { get; }

    private const string PositionMarker = "(at position ";

    // The server ends a parse error's detail with "(at position N)".
    private static int? ParsePosition(string? detail)
    {
        if (detail is null)
            return null;
        int start = detail.LastIndexOf(PositionMarker, StringComparison.Ordinal);
        if (start < 0)
            return null;
        start += PositionMarker.Length;
        int end = detail.IndexOf(')', start);
        if (end < 0)
            return null;
        return int.TryParse(detail.AsSpan(start, end - start), NumberStyles.None, CultureInfo.InvariantCulture, out int position) ? position : null;
    }

    internal static (int Line, int Column) LineAndColumn(string text, int position)
    {
        int line = 1;
        int lineStart = 0;
        int end = Math.Min(position, text.Length);
        for (int i = 0; i < end; i++)
        {
            if (text[i] == '\n')
            {
                line++;
                lineStart = i + 1;
            }
        }
        return (line, position - lineStart + 1);
    }
}
