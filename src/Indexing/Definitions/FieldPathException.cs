namespace Folio.Indexing.Definitions;

/// <summary>A path that does not parse; the message says what is wrong, where, and how to write it instead.</summary>
public sealed class FieldPathException : FormatException
{
    /// <summary>Creates the exception.</summary>
    /// <param name="path">The path as given.</param>
    /// <param name="position">The character offset (from 0) in <paramref name="path"/> where the problem is.</param>
    /// <param name="message">The whole message, naming the path, the problem and the position.</param>
    public FieldPathException(string path, int position, string message)
        : base(message)
    {
        Path = path;
        Position = position;
    }

    /// <summary>The path as given.</summary>
    public string Path { get; }

    /// <summary>The character offset (from 0) in <see cref="Path"/> where the problem is.</summary>
    public int Position { get; }
}
