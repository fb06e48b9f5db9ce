using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace Folio.Storage.Platform;

/// <summary>
/// Every operating-system call the engine makes beyond what <see cref="RandomAccess"/> offers.
/// Keeping them here is what lets the rest of the engine stay portable and testable.
/// </summary>
internal static partial class Pal
{
    /// <summary>
    /// Makes the file's data durable. On Linux this is <c>fdatasync</c>, which skips the inode
    /// update a plain fsync pays for when only the data changed (journals are preallocated).
    /// </summary>
    public static void FlushData(SafeFileHandle handle)
    {
        if (OperatingSystem.IsLinux())
        {
            var added = false;
            handle.DangerousAddRef(ref added);
            try
            {
                if (fdatasync((int)handle.DangerousGetHandle()) != 0)
                    throw new IOException($"fdatasync failed with errno {Marshal.GetLastPInvokeError()}");
            }
            finally
            {
                if (added)
                    handle.DangerousRelease();
            }
            return;
        }
        RandomAccess.FlushToDisk(handle);
    }

    /// <summary>Makes a directory entry change (a created, renamed or deleted file) durable.</summary>
    public static void FlushDirectory(string directory)
    {
        if (!OperatingSystem.IsLinux())
            return;
        var fd = open(directory, 0 /* O_RDONLY */);
        if (fd < 0)
            return;
        try
        {
            if (fsync(fd) != 0)
                throw new IOException($"fsync of directory '{directory}' failed with errno {Marshal.GetLastPInvokeError()}");
        }
        finally
        {
            _ = close(fd);
        }
    }

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fdatasync(int fd);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fsync(int fd);

    [LibraryImport("libc", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int open(string path, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);
}
