namespace Folio.Import;

/// <summary>An input file holds something that cannot become a document; the message names the file and line or index.</summary>
public sealed class ImportException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What is wrong and where.</param>
    /// <param name="inner">The JSON reader's exception, if any.</param>
    public ImportException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
