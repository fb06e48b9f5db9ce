using System.Text.RegularExpressions;

namespace Folio.Server.Tests.Packaging;

/// <summary>The instructions of docker/Dockerfile's final stage that decide how the image runs.</summary>
public sealed partial class DockerfileInstructions
{
    public required string PublishCommand { get; init; }

    public required string? User { get; init; }

    public required IReadOnlyList<string> Volumes { get; init; }

    public required IReadOnlyList<int> ExposedPorts { get; init; }

    public required IReadOnlyDictionary<string, string> Environment { get; init; }

    /// <summary>The HEALTHCHECK's exec form, e.g. <c>["/app/Folio.Server", "probe"]</c>.</summary>
    public required IReadOnlyList<string> HealthCheck { get; init; }

    public required IReadOnlyList<string> EntryPoint { get; init; }

    public static DockerfileInstructions Parse(string text)
    {
        // Join continuation lines, drop comments; the last FROM starts the stage that becomes the image.
        string joined = Regex.Replace(text, @"\\\r?\n\s*", " ");
        var lines = joined.Split('\n').Select(l => l.Trim()).Where(l => l.Length > 0 && !l.StartsWith('#')).ToList();
        string publish = lines.Single(l => l.StartsWith("RUN dotnet publish", StringComparison.Ordinal))["RUN ".Length..];
        int final = lines.FindLastIndex(l => l.StartsWith("FROM ", StringComparison.Ordinal));
        var stage = lines.Skip(final).ToList();

        var environment = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (string env in Arguments(stage, "ENV"))
        {
            foreach (Match pair in EnvPair().Matches(env))
                environment[pair.Groups[1].Value] = pair.Groups[2].Value;
        }

        return new DockerfileInstructions
        {
            PublishCommand = publish,
            User = Arguments(stage, "USER").LastOrDefault(),
            Volumes = Arguments(stage, "VOLUME").SelectMany(v => v.Split(' ', StringSplitOptions.RemoveEmptyEntries)).ToList(),
            ExposedPorts = Arguments(stage, "EXPOSE").SelectMany(v => v.Split(' ', StringSplitOptions.RemoveEmptyEntries)).Select(int.Parse).ToList(),
            Environment = environment,
            HealthCheck = ExecForm(Arguments(stage, "HEALTHCHECK").Single()[(Arguments(stage, "HEALTHCHECK").Single().IndexOf("CMD ", StringComparison.Ordinal) + 4)..]),
            EntryPoint = ExecForm(Arguments(stage, "ENTRYPOINT").Single()),
        };
    }

    private static IEnumerable<string> Arguments(List<string> lines, string instruction) =>
        lines.Where(l => l.StartsWith(instruction + " ", StringComparison.Ordinal)).Select(l => l[(instruction.Length + 1)..].Trim());

    private static List<string> ExecForm(string json) => System.Text.Json.JsonSerializer.Deserialize<List<string>>(json.Trim())!;

    [GeneratedRegex(@"(\w+)=(\S+)")]
    private static partial Regex EnvPair();
}
