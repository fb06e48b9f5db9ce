using Folio.Server.Tests.Support;

namespace Folio.Server.Tests.Stress;

/// <summary>
/// The soak harness (<c>tests/Benchmarks</c>, command <c>soak</c>) for three minutes: mixed load with idle unloads,
/// resets, a subscription and a changes consumer, then its bounds (RSS growth, p99 drift, no errors).
/// </summary>
public sealed class SoakTests
{
    [Fact]
    [Trait("Category", "Slow")]
    public async Task Soak_KeepsItsBounds_ForThreeMinutesOfMixedLoad()
    {
        string output = Path.Combine(Path.GetTempPath(), "folio-tests", "soak-" + Guid.NewGuid().ToString("N"));
        try
        {
            (int exit, string stdout, string stderr) = await ExternalProcess.RunAsync(
                "dotnet",
                ["run", "-c", "Release", "--project", Path.Combine(RepositoryFiles.Root(), "tests", "Benchmarks"), "--", "soak",
                 "--minutes", "3", "--warmup-minutes", "1", "--sample-seconds", "15", "--tenants", "10", "--out", output],
                TimeSpan.FromMinutes(20));
            Assert.True(exit == 0, $"soak exited {exit}:\n{stdout}\n{stderr}");
            Assert.Contains("every bound held", stdout, StringComparison.Ordinal);
            Assert.True(File.Exists(Path.Combine(output, "soak-samples.csv")));
            Assert.True(File.Exists(Path.Combine(output, "soak-p99.svg")));
        }
        finally
        {
            if (Directory.Exists(output))
                Directory.Delete(output, recursive: true);
        }
    }
}
