using System.Globalization;

namespace Folio.Benchmarks.Search;

/// <summary>Reads a benchmark command's options: <c>--name value</c> pairs and <c>--flag</c>s.</summary>
internal static class CommandOptions
{
    /// <summary>
    /// Hands each option's value to its setter in <paramref name="values"/> and calls each flag's in
    /// <paramref name="flags"/>; false, with <paramref name="usage"/> written to stderr, at the first option neither
    /// knows (or a value missing at the end).
    /// </summary>
    public static bool Parse(string[] args, string usage, Dictionary<string, Action<string>> values, Dictionary<string, Action> flags)
    {
        for (var i = 0; i < args.Length; i++)
        {
            if (values.TryGetValue(args[i], out var set) && i + 1 < args.Length)
            {
                set(args[++i]);
                continue;
            }
            if (flags.TryGetValue(args[i], out var flag))
            {
                flag();
                continue;
            }
            Console.Error.WriteLine($"Unknown option '{args[i]}'. {usage}");
            return false;
        }
        return true;
    }

    /// <summary>A whole number as the command line writes it.</summary>
    public static int Int(string text) => int.Parse(text, CultureInfo.InvariantCulture);
}
