namespace Folio.Server.Transfer;

/// <summary>A line of an import that is neither a document with an id nor an index definition.</summary>
/// <param name="line">The line's number, from 1.</param>
/// <param name="reason">What is wrong with it.</param>
/// <param name="inner">The parser's complaint, if any.</param>
public sealed class ImportLineException(long line, string reason, Exception? inner = null) : Exception($"Line {line}: {reason}", inner)
{
    /// <summary>The line's number, from 1.</summary>
    public long Line { get; } = line;
}
