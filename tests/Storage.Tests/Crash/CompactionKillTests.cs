using Folio.Storage.Documents;
using Folio.Storage.Tests.Support;
using Xunit.Abstractions;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// Kill -9 cycles of the CrashWriter's compaction modes on one directory: documents put, updated and deleted
/// through the merger (compression on in even cycles, off in odd ones) while the store compacts itself over and
/// over, so kills land before a compaction, while it copies, while it catches up, at the swap and after it (some
/// cycles wait for the child to print that a catch-up or the swap began, then kill it within milliseconds). After
/// each kill the store reopens with no half-built compaction file left, Verify() passes, and every document is in
/// the state its last acknowledged write left (or that of its one unacknowledged write in flight); ids never
/// written, and deleted ones with no put in flight, are absent.
/// Slow tier: <c>dotnet test tests/Storage.Tests --settings tests/slow.runsettings --filter "FullyQualifiedName~CompactionKillTests"</c>.
/// </summary>
[Collection(HeavyTests.Name)]
public class CompactionKillTests(ITestOutputHelper output)
{
    private const string LeftoverPattern = "compacting.*";

    [Fact]
    public Task Kill_DuringRepeatedCompactions_KeepsEveryAcknowledgedWrite() => RunCyclesAsync(cycles: 6, seed: 5);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Kill_DuringRepeatedCompactions_KeepsEveryAcknowledgedWrite_100Cycles() => RunCyclesAsync(cycles: 100, seed: 6);

    private async Task RunCyclesAsync(int cycles, int seed)
    {
        using var directory = new TempDirectory("kill-compaction");
        var ledger = new CompactionLedger();
        using (var child = CrashWriterProcess.StartCompaction(directory.Path, seed * 100_000, "compact-seed"))
        {
            await child.WaitForSuccessAsync();
            ledger.Take(child.Lines);
        }
        Check(directory.Path, ledger, "after seeding");

        var random = new Random(seed);
        var kills = new SortedDictionary<string, int>(StringComparer.Ordinal);
        var leftovers = 0;
        for (var cycle = 0; cycle < cycles; cycle++)
        {
            // Most kills land in the long copy; a quarter aim just after the swap begins, and a quarter at the
            // start of a catch-up or, soon after the open, at the first compaction's count and copy.
            var (signal, window) = random.Next(4) switch
            {
                0 => ("PHASE Swapping", random.Next(0, 250)),
                1 => cycle % 3 == 0 ? ("OPENED", random.Next(0, 200)) : ("PHASE CatchingUp", random.Next(0, 60)),
                _ => ("OPENED", random.Next(200, 2000)),
            };
            var mode = cycle % 2 == 0 ? "compact" : "compact-plain";
            string phase;
            using (var child = CrashWriterProcess.StartCompaction(directory.Path, seed * 100_000 + cycle + 1, mode))
            {
                await child.WaitForLineAsync(signal);
                await child.KillAfterAsync(TimeSpan.FromMilliseconds(window));
                phase = ledger.Take(child.Lines);
            }
            var leftover = Directory.GetFiles(directory.Path, LeftoverPattern).Length > 0;
            if (leftover)
                leftovers++;
            // The swap renames the new file away: a file left means the kill came before that rename.
            if (phase == "Swapping")
                phase += leftover ? " (before the rename)" : " (after the rename)";
            kills[phase] = kills.GetValueOrDefault(phase) + 1;
            Check(directory.Path, ledger, $"cycle {cycle} ({mode}, killed {window} ms after {signal}, last phase printed {phase})");
        }

        output.WriteLine($"{cycles} cycles; kills by last phase printed: {string.Join(", ", kills.Select(k => $"{k.Key} {k.Value}"))}");
        output.WriteLine($"{leftovers} kills left a {LeftoverPattern} file; {ledger.Puts} puts and {ledger.Deletes} deletes acknowledged; {ledger.UnacknowledgedFound} unacknowledged writes found committed");
        var duringCompaction = kills.Where(k => k.Key is "Copying" or "CatchingUp" || k.Key.StartsWith("Swapping", StringComparison.Ordinal)).Sum(k => k.Value);
        Assert.True(duringCompaction * 2 >= cycles, $"only {duringCompaction} of {cycles} kills landed during a compaction");
        Assert.True(ledger.Puts + ledger.Deletes > cycles * 100L, $"only {ledger.Puts + ledger.Deletes} writes were acknowledged in {cycles} cycles");
    }

    private static void Check(string path, CompactionLedger ledger, string where)
    {
        using var store = DocumentStore.Open(StorageOptions.ForPath(path) with { BackgroundFlush = false });
        Assert.True(Directory.GetFiles(path, LeftoverPattern).Length == 0, $"{where}: a {LeftoverPattern} file is left after the open");
        store.Environment.Verify();
        ledger.Check(store, where);
    }
}
