using Folio.Server.Http;

namespace Folio.Server.BulkInsert;

/// <summary>
/// A bulk insert stream stopped at a command it could not accept. Besides the problem's status, title
/// and detail it carries where the stream broke, so the answer can name the command and the byte and a
/// client knows where to resume.
/// </summary>
public sealed class BulkInsertCommandException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="statusCode">400, or 413 for a command over the size limit.</param>
    /// <param name="title">Short summary of the kind of problem.</param>
    /// <param name="detail">What is wrong with the command, naming its index and byte offset.</param>
    /// <param name="type">A <see cref="ProblemTypes"/> URI.</param>
    /// <param name="commandIndex">Zero-based index of the command in the array.</param>
    /// <param name="byteOffset">Offset in the (decompressed) body of the command's first byte, or of the error when no command had begun.</param>
    /// <param name="inner">The JSON reader's or validator's exception, if any.</param>
    public BulkInsertCommandException(int statusCode, string title, string detail, string type, long commandIndex, long byteOffset, Exception? inner = null)
        : base(detail, inner)
    {
        StatusCode = statusCode;
        Title = title;
        Detail = detail;
        Type = type;
        CommandIndex = commandIndex;
        ByteOffset = byteOffset;
    }

    /// <summary>HTTP status of the answer.</summary>
    public int StatusCode { get; }

    /// <summary>Short summary of the kind of problem.</summary>
    public string Title { get; }

    /// <summary>What went wrong, for the client.</summary>
    public string Detail { get; }

    /// <summary>URI naming the problem kind.</summary>
    public string Type { get; }

    /// <summary>Zero-based index of the command the stream stopped at; every command before it was stored.</summary>
    public long CommandIndex { get; }

    /// <summary>Offset in the (decompressed) body where that command starts.</summary>
    public long ByteOffset { get; }
}
