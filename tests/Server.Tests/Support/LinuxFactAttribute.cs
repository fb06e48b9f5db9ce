namespace Folio.Server.Tests.Support;

/// <summary>A test that reads what only Linux offers (<c>/proc</c>); skipped elsewhere.</summary>
public sealed class LinuxFactAttribute : FactAttribute
{
    /// <summary>Skips the test unless it runs on Linux.</summary>
    public LinuxFactAttribute()
    {
        if (!OperatingSystem.IsLinux())
            Skip = "reads /proc, which only Linux has";
    }
}
