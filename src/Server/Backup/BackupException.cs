namespace Folio.Server.Backup;

/// <summary>A backup directory that cannot be restored (missing, damaged, truncated or not Folio's), or one that cannot be written.</summary>
public sealed class BackupException : Exception
{
    /// <summary>Creates the exception.</summary>
    /// <param name="message">What is wrong, naming the file.</param>
    /// <param name="inner">The cause, if any.</param>
    public BackupException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}
