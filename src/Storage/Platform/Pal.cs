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

    /// <summary>errno ENOSPC on Linux and macOS; .NET reports it as the HResult of an <see cref="IOException"/> on Unix.</summary>
    public const int NoSpace = 28;

    // Windows: ERROR_HANDLE_DISK_FULL (39) and ERROR_DISK_FULL (112) as HRESULTs, or the bare code.
    private const int WindowsHandleDiskFull = unchecked((int)0x80070027);
    private const int WindowsDiskFull = unchecked((int)0x80070070);
    private const int RawDiskFull = 0x70;
    private const int FallocKeepSize = 0x01;
    private const int FallocPunchHole = 0x02;
    private const int EOPNOTSUPP = 95;

    /// <summary>Whether <paramref name="exception"/> is the operating system saying the disk is full.</summary>
    public static bool IsDiskFull(IOException exception) =>
        exception.HResult is NoSpace or WindowsHandleDiskFull or WindowsDiskFull or RawDiskFull;

    /// <summary>
    /// Gives the file real blocks up to <paramref name="length"/> (growing it), so a later write through a memory
    /// mapping cannot find the disk full: a sparse page the file system cannot back kills the process with SIGBUS
    /// instead of failing a call. Where there is no <c>posix_fallocate</c>, setting the length is all there is.
    /// </summary>
    /// <exception cref="IOException">The blocks could not be had; the HResult is the errno (ENOSPC for a full disk).</exception>
    public static void Allocate(SafeFileHandle handle, long from, long length)
    {
        if (!OperatingSystem.IsLinux())
        {
            RandomAccess.SetLength(handle, from + length);
            return;
        }
        var added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            // posix_fallocate returns the error instead of setting errno.
            var error = posix_fallocate((int)handle.DangerousGetHandle(), from, length);
            if (error != 0)
                throw new IOException($"posix_fallocate of {length} bytes at {from} failed with errno {error}", error);
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    /// <summary>
    /// Gives a range of the file's blocks back to the file system (a hole: reads see zeros) without changing its
    /// length, so a mapping of the file stays valid. False where holes cannot be punched; the blocks then stay.
    /// </summary>
    /// <exception cref="IOException">The file system refused for another reason; the HResult is the errno.</exception>
    public static bool PunchHole(SafeFileHandle handle, long from, long length)
    {
        if (!OperatingSystem.IsLinux() || length <= 0)
            return false;
        var added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            if (fallocate((int)handle.DangerousGetHandle(), FallocPunchHole | FallocKeepSize, from, length) == 0)
                return true;
            var error = Marshal.GetLastPInvokeError();
            if (error == EOPNOTSUPP)
                return false;
            throw new IOException($"Punching a hole of {length} bytes at {from} failed with errno {error}", error);
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    /// <summary>
    /// Takes the pages of a read-only shared file mapping out of the process's resident set. Their contents stay in the
    /// page cache and on disk, so the next read of an address maps the same bytes again (a minor fault): nothing is lost
    /// and spans into the range stay valid. False where this is not supported or the range is not page-aligned.
    /// </summary>
    /// <param name="address">The start of the mapping, aligned to the system page size.</param>
    /// <param name="length">Bytes from <paramref name="address"/>, all inside one mapping the caller keeps mapped during the call.</param>
    public static unsafe bool ReleaseResidentPages(byte* address, long length)
    {
        if (!OperatingSystem.IsLinux() || length <= 0 || (nuint)address % (nuint)Environment.SystemPageSize != 0)
            return false;
        // MADV_DONTNEED drops anonymous memory's contents, but a shared file mapping's pages are the file's: only the
        // page-table entries go (MADV_PAGEOUT would evict them from the cache too, making the next read a disk read).
        return madvise(address, (nuint)length, MadviseDontNeed) == 0;
    }

    private const int MadviseDontNeed = 4;
    private const int MadviseRandom = 1;
    private const int FadviseDontNeed = 4;

    /// <summary>
    /// Asks that faults in a mapping read only the page they touch (no read-ahead). With the file's pages out of the
    /// cache (<see cref="DropCachedPages"/>), that keeps the kernel from mapping the cached neighbours of each page
    /// read (up to 64 KB around it): a small file read a page or two at a time then has only those pages resident.
    /// </summary>
    public static unsafe bool AdviseRandomAccess(byte* address, long length)
    {
        if (!OperatingSystem.IsLinux() || length <= 0 || (nuint)address % (nuint)Environment.SystemPageSize != 0)
            return false;
        return madvise(address, (nuint)length, MadviseRandom) == 0;
    }

    /// <summary>Drops a file's clean pages from the operating system's cache (dirty ones are written back first and stay); the next read of them is a disk read.</summary>
    public static bool DropCachedPages(SafeFileHandle handle)
    {
        if (!OperatingSystem.IsLinux())
            return false;
        var added = false;
        handle.DangerousAddRef(ref added);
        try
        {
            return posix_fadvise((int)handle.DangerousGetHandle(), 0, 0, FadviseDontNeed) == 0;
        }
        finally
        {
            if (added)
                handle.DangerousRelease();
        }
    }

    [LibraryImport("libc")]
    private static partial int posix_fadvise(int fd, long offset, long len, int advice);

    [LibraryImport("libc", SetLastError = true)]
    private static unsafe partial int madvise(byte* address, nuint length, int advice);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fallocate(int fd, int mode, long offset, long len);

    [LibraryImport("libc")]
    private static partial int posix_fallocate(int fd, long offset, long len);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fdatasync(int fd);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int fsync(int fd);

    [LibraryImport("libc", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int open(string path, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);
}
