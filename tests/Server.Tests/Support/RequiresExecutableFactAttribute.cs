namespace Folio.Server.Tests.Support;

/// <summary>A fact that is skipped, with the reason shown, when an executable is not on PATH.</summary>
public sealed class RequiresExecutableFactAttribute : FactAttribute
{
    public RequiresExecutableFactAttribute(string executable)
    {
        if (FindOnPath(executable) is null)
            Skip = $"'{executable}' is not on PATH, so this example cannot run here.";
    }

    public static string? FindOnPath(string executable)
    {
        string[] extensions = OperatingSystem.IsWindows() ? [".exe", ".cmd", ""] : [""];
        foreach (string directory in (Environment.GetEnvironmentVariable("PATH") ?? string.Empty).Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            foreach (string extension in extensions)
            {
                string candidate = Path.Combine(directory, executable + extension);
                if (File.Exists(candidate))
                    return candidate;
            }
        }

        return null;
    }
}
