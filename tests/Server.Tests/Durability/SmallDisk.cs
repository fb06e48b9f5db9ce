using System.Diagnostics;

namespace Folio.Server.Tests.Durability;

/// <summary>A small tmpfs mounted for one test, so the disk really fills; needs root and a kernel that lets the test mount.</summary>
public sealed class SmallDisk : IDisposable
{
    private SmallDisk(string path)
    {
        Path = path;
    }

    public string Path { get; }

    /// <summary>Why a tmpfs cannot be mounted here, or null when it can (tried once, with a 1 MB one).</summary>
    public static string? Unavailable { get; } = Probe();

    public static SmallDisk Mount(int megabytes)
    {
        string path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "folio-tests", "disk-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(path);
        (int exit, string output) = Run("mount", "-t", "tmpfs", "-o", $"size={megabytes}m", "tmpfs", path);
        if (exit != 0)
        {
            Directory.Delete(path);
            throw new InvalidOperationException($"mount of a {megabytes} MB tmpfs at {path} failed: {output}");
        }

        return new SmallDisk(path);
    }

    /// <summary>Gives the disk a new size, as an operator freeing space would.</summary>
    public void Resize(int megabytes)
    {
        (int exit, string output) = Run("mount", "-o", $"remount,size={megabytes}m", Path);
        if (exit != 0)
            throw new InvalidOperationException($"remount of {Path} at {megabytes} MB failed: {output}");
    }

    public void Dispose()
    {
        Run("umount", "-l", Path);
        try
        {
            Directory.Delete(Path, recursive: true);
        }
        catch (IOException)
        {
            // A lazily unmounted directory may linger until its last handle closes; it is empty either way.
        }
    }

    private static string? Probe()
    {
        if (!OperatingSystem.IsLinux())
            return "a tmpfs needs Linux";
        try
        {
            using SmallDisk disk = Mount(1);
            return null;
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return $"no small disk can be mounted here (root and CAP_SYS_ADMIN are needed): {e.Message}";
        }
    }

    private static (int Exit, string Output) Run(string file, params string[] args)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string arg in args)
            start.ArgumentList.Add(arg);
        using Process process = Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd() + process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output);
    }
}

/// <summary>A fact skipped, with the reason shown, where no small tmpfs can be mounted.</summary>
public sealed class SmallDiskFactAttribute : FactAttribute
{
    public SmallDiskFactAttribute()
    {
        if (SmallDisk.Unavailable is { } reason)
            Skip = reason;
    }
}
