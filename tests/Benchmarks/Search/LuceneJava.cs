using System.Diagnostics;

namespace Folio.Benchmarks.Search;

/// <summary>
/// Runs the Java Lucene programs under Search/lucene (copied next to the binaries) against Debian's Lucene 8 jars
/// (tests/Benchmarks/Search/setup-lucene.sh installs them and a JDK).
/// </summary>
internal static class LuceneJava
{
    /// <summary>
    /// The jars matching <paramref name="patterns"/> (e.g. <c>lucene-core-8*.jar</c>) under /usr/share/java, one each,
    /// or null (with the reason written to <paramref name="log"/>) when any is missing.
    /// </summary>
    public static string[]? Jars(TextWriter log, params string[] patterns)
    {
        var jars = new List<string>();
        foreach (var pattern in patterns)
        {
            if ((Directory.Exists("/usr/share/java") ? Directory.GetFiles("/usr/share/java", pattern).FirstOrDefault() : null) is not { } jar)
            {
                log.WriteLine($"{pattern} not found under /usr/share/java: run tests/Benchmarks/Search/setup-lucene.sh first.");
                return null;
            }
            jars.Add(jar);
        }
        return [.. jars];
    }

    /// <summary>The path of a program under Search/lucene as copied next to the binaries.</summary>
    public static string Program(string fileName) => Path.Combine(AppContext.BaseDirectory, "Search", "lucene", fileName);

    /// <summary>Runs <c>java</c> with <paramref name="arguments"/>, echoing the command line; returns its exit code.</summary>
    public static int Run(IReadOnlyList<string> arguments, TextWriter log) => Start("java", arguments, log);

    /// <summary>Runs <c>javac</c> with <paramref name="arguments"/>; returns its exit code.</summary>
    public static int Compile(IReadOnlyList<string> arguments, TextWriter log) => Start("javac", arguments, log);

    private static int Start(string tool, IReadOnlyList<string> arguments, TextWriter log)
    {
        var info = new ProcessStartInfo(tool, arguments);
        log.WriteLine($"running: {tool} {string.Join(' ', arguments)}");
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"Could not start {tool}.");
        process.WaitForExit();
        return process.ExitCode;
    }
}
