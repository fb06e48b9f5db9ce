using System.Text;

namespace Folio.Indexing.Scripting;

/// <summary>
/// The JavaScript Folio runs, assembled from pieces of a client's text (declared functions, a projection, an
/// update body) and glue of its own, remembering where each piece came from so an error in the assembled
/// program is reported at the line and column the client wrote.
/// </summary>
public sealed class ScriptSource
{
    private readonly StringBuilder _text = new();
    private readonly List<Piece> _pieces = [];
    private int _line = 1;

    /// <summary>The assembled program.</summary>
    public string Text => _text.ToString();

    /// <summary>Appends Folio's own code (errors inside it have no client position).</summary>
    public ScriptSource Glue(string code)
    {
        Append(code);
        return this;
    }

    /// <summary>
    /// Appends a piece of the client's text that starts at <paramref name="line"/> and <paramref name="column"/>
    /// (1-based) of what the client sent, on a line of its own.
    /// </summary>
    public ScriptSource Client(string code, int line, int column)
    {
        if (_text.Length > 0 && _text[^1] != '\n')
            Append("\n");
        _pieces.Add(new Piece(_line, _line + CountLines(code), line, column));
        Append(code);
        Append("\n");
        return this;
    }

    /// <summary>
    /// Where a position of the assembled program (line 1-based, column 0-based as the parser counts) lies in the
    /// client's text; null inside Folio's glue.
    /// </summary>
    public (int Line, int Column)? ClientPosition(int line, int column)
    {
        foreach (var piece in _pieces)
        {
            if (line < piece.FirstLine || line > piece.LastLine)
                continue;
            var clientLine = piece.ClientLine + (line - piece.FirstLine);
            var clientColumn = line == piece.FirstLine ? piece.ClientColumn + column : column + 1;
            return (clientLine, clientColumn);
        }
        return null;
    }

    private void Append(string code)
    {
        _text.Append(code);
        _line += CountLines(code);
    }

    private static int CountLines(string code)
    {
        var count = 0;
        foreach (var c in code)
        {
            if (c == '\n')
                count++;
        }
        return count;
    }

    private readonly record struct Piece(int FirstLine, int LastLine, int ClientLine, int ClientColumn);
}
