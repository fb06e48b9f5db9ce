using Folio.Storage.Platform.Zstd;

namespace Folio.Storage.Tests.Support;

/// <summary>A fact about the system's libzstd, skipped with the reason shown on a machine without one.</summary>
public sealed class NativeZstdFactAttribute : FactAttribute
{
    /// <summary>The places Debian, Ubuntu and Fedora keep the library.</summary>
    public static readonly string[] SystemPaths =
        ["/lib/x86_64-linux-gnu/libzstd.so.1", "/usr/lib/x86_64-linux-gnu/libzstd.so.1", "/lib/aarch64-linux-gnu/libzstd.so.1", "/usr/lib64/libzstd.so.1"];

    /// <summary>Skips the test when no libzstd file is installed (<paramref name="requireFileOnly"/>) or when none loads.</summary>
    public NativeZstdFactAttribute(bool requireFileOnly = false)
    {
        if (requireFileOnly ? !Array.Exists(SystemPaths, File.Exists) : ZstdLibrary.Native is null)
            Skip = "this machine has no libzstd.so.1 (Debian: apt-get install libzstd1), so only the managed Zstd runs here";
    }
}
