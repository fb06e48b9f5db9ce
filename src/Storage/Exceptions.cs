namespace Folio.Storage;

/// <summary>Base of the errors the storage engine raises on purpose.</summary>
public class StorageException : Exception
{
    /// <summary>Creates the exception.</summary>
    public StorageException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }
}

/// <summary>The files do not hold what the engine wrote: a checksum, a page or an invariant does not match.</summary>
public sealed class CorruptionException(string message) : StorageException(message);

/// <summary>The storage directory is held by another environment or process.</summary>
public sealed class StorageLockedException(string message, Exception? inner = null) : StorageException(message, inner);

/// <summary>The files were written by a newer (or unknown) format version of Folio.</summary>
public sealed class UnsupportedFormatException(string message) : StorageException(message);

/// <summary>
/// The environment saw a failed write or sync and refuses further writes: after a failed fsync the
/// kernel may have dropped the dirty pages, so retrying could silently lose a committed write.
/// </summary>
public sealed class EnvironmentFailedException(string message, Exception? inner = null) : StorageException(message, inner);

/// <summary>A key larger than <see cref="StorageLimits.MaxKeySize"/> or an empty key where one is required.</summary>
public sealed class InvalidKeyException(string message) : StorageException(message);

/// <summary>
/// The disk has no room for what a write needs (a journal file, or a larger data file). Nothing of the write was
/// stored and the environment stays usable: reads go on, and writes succeed again once space is freed.
/// </summary>
public sealed class DiskFullException(string message, Exception? inner = null) : StorageException(message, inner)
{
    /// <summary>Whether <paramref name="exception"/>, or one it wraps, is a full disk: this exception or the operating system's ENOSPC.</summary>
    public static bool IsCause(Exception exception)
    {
        for (Exception? current = exception; current is not null; current = current.InnerException)
        {
            if (current is DiskFullException || (current is IOException io && Platform.Pal.IsDiskFull(io)))
                return true;
        }
        return false;
    }
}

/// <summary>A compaction was asked for while another one runs on the same environment.</summary>
public sealed class CompactionInProgressException(string message) : StorageException(message);
