using System.Text;
using Folio.Storage.Platform;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// Kill -9 cycles on one real directory: the CrashWriter child writes (directly and through the
/// merger) and acknowledges each commit on stdout; the test kills it at a random moment (now and
/// then right as it opens, so during recovery), reopens the environment, checks that every
/// acknowledged transaction is there with the value it acknowledged and that Verify() passes, prunes
/// old transactions so the directory stays small, and starts the next cycle on the same directory.
/// Slow tier (1000 cycles):
///   dotnet test tests/Storage.Tests --settings tests/slow.runsettings --filter "FullyQualifiedName~KillTests"
/// </summary>
[Collection(HeavyTests.Name)]
public class KillTests
{
    private const int KeptAcknowledged = 300;

    [Fact]
    public Task Kill_DuringWrites_KeepsEveryAcknowledgedTransaction() => RunCyclesAsync(cycles: 20, seed: 1);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Kill_DuringWrites_KeepsEveryAcknowledgedTransaction_1000Cycles() => RunCyclesAsync(cycles: 1000, seed: 2);

    private static async Task RunCyclesAsync(int cycles, int seed)
    {
        using var directory = new TempDirectory("kill");
        var random = new Random(seed);
        var acknowledged = new SortedDictionary<long, uint>();
        long totalAcknowledged = 0;
        for (var cycle = 0; cycle < cycles; cycle++)
        {
            var duringOpen = random.Next(6) == 0;
            var window = TimeSpan.FromMilliseconds(duringOpen ? random.Next(30) : random.Next(20, 400));
            using (var child = CrashWriterProcess.Start(directory.Path, seed * 100_000 + cycle))
            {
                await child.WaitForLineAsync(duringOpen ? "OPENING" : "OPENED");
                await child.KillAfterAsync(window);
                foreach (var (number, checksum) in child.Acknowledged)
                {
                    Assert.False(acknowledged.ContainsKey(number), $"cycle {cycle}: transaction {number} was acknowledged twice");
                    acknowledged.Add(number, checksum);
                }
                totalAcknowledged += child.Acknowledged.Count;
            }
            CheckAndPrune(directory.Path, acknowledged, $"cycle {cycle} (killed {(duringOpen ? "while opening" : "while writing")}, {window.TotalMilliseconds} ms after)");
        }
        Assert.True(totalAcknowledged > cycles, $"only {totalAcknowledged} transactions were acknowledged in {cycles} cycles");
    }

    private static void CheckAndPrune(string path, SortedDictionary<long, uint> acknowledged, string where)
    {
        using var env = StorageEnvironment.Open(StorageOptions.ForPath(path) with { BackgroundFlush = false });
        env.Verify();
        var present = new List<byte[]>();
        using (var read = env.BeginRead())
        {
            var tree = read.OpenTree(CrashWriterProcess.TxnTree);
            foreach (var (number, checksum) in acknowledged)
            {
                ReadOnlySpan<byte> value = default;
                Assert.True(tree is not null && tree.TryGet(CrashWriterProcess.Key(number), out value), $"{where}: acknowledged transaction {number} is missing");
                Assert.True(Crc32C.Compute(value) == checksum, $"{where}: acknowledged transaction {number} holds {value.Length} bytes that do not match its checksum");
            }
            if (tree is not null)
            {
                var cursor = tree.CreateCursor();
                for (var more = cursor.First(); more; more = cursor.MoveNext())
                    present.Add(cursor.Key.ToArray());
            }
        }

        // Keep the newest acknowledged transactions (checked again next cycle); delete the rest, and
        // whatever was committed but never acknowledged.
        var keep = acknowledged.Keys.Skip(Math.Max(0, acknowledged.Count - KeptAcknowledged)).ToHashSet();
        foreach (var number in acknowledged.Keys.Where(number => !keep.Contains(number)).ToList())
            acknowledged.Remove(number);
        using (var tx = env.BeginWrite())
        {
            var tree = tx.OpenTree(CrashWriterProcess.TxnTree);
            foreach (var key in present)
            {
                if (!keep.Contains(long.Parse(Encoding.UTF8.GetString(key))))
                    tree!.Delete(key);
            }
            tx.Commit();
        }
        env.Verify();
    }
}
