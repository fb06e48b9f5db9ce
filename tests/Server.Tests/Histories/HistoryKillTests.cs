using Xunit.Abstractions;

namespace Folio.Server.Tests.Histories;

/// <summary>
/// Issue 24, "Histories, not just states": 16 clients read, compare-and-set, batch and query eight documents while the
/// server is killed with SIGKILL and restarted; the recorded history must be linearizable per document, lose no
/// acknowledged write and show no reader part of a batch. A failing history is kept under the temporary directory.
/// </summary>
public sealed class HistoryKillTests(ITestOutputHelper output)
{
    [Fact]
    public Task History_UnderKill9_IsLinearizable_LosesNoWrite_AndShowsNoPartialBatch() =>
        RunAsync(seed: 24, TimeSpan.FromSeconds(30), kills: 3);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(1)]
    [InlineData(2)]
    public Task History_UnderManyKill9s_IsLinearizable_LosesNoWrite_AndShowsNoPartialBatch(int seed) =>
        RunAsync(seed, TimeSpan.FromMinutes(2), kills: 10);

    private async Task RunAsync(int seed, TimeSpan duration, int kills)
    {
        History history = await HistoryRun.RecordAsync(seed, clients: 16, keyCount: 8, duration, kills, output.WriteLine);

        HistoryReport report = HistoryChecker.Check(history);

        output.WriteLine(report.Describe());
        if (report.Anomalies.Count > 0)
        {
            string kept = Path.Combine(Path.GetTempPath(), "folio-histories", $"history-{seed}-{DateTime.UtcNow:yyyyMMddHHmmss}.ndjson");
            HistoryRecorder.Save(history, kept);
            Assert.Fail($"{report.Anomalies.Count} anomalies; the history is in {kept}:{Environment.NewLine}{report.Describe()}");
        }

        Assert.True(report.Acknowledged > 100, $"Too few operations to mean anything: {report.Describe()}");
    }
}
