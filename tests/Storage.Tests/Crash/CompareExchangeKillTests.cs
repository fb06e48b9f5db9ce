using System.Globalization;
using System.Text;
using Folio.Storage.Documents;
using Folio.Storage.Platform;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Crash;

/// <summary>
/// Kill -9 cycles of the CrashWriter's compare-exchange mode on one directory: entries created alone and in
/// cluster-wide batches with a document and its atomic guard. After each kill the store reopens, every acknowledged
/// entry reads back with the JSON it was sent (and, from a batch, with its document and guard at the same index),
/// Verify() passes, and a new entry takes an index above every stored one.
/// </summary>
[Collection(HeavyTests.Name)]
public class CompareExchangeKillTests
{
    [Fact]
    public Task Kill_DuringCompareExchangeWrites_KeepsEveryAcknowledgedEntry() => RunCyclesAsync(cycles: 6, seed: 5);

    [Fact]
    [Trait("Category", "Slow")]
    public Task Kill_DuringCompareExchangeWrites_KeepsEveryAcknowledgedEntry_100Cycles() => RunCyclesAsync(cycles: 100, seed: 6);

    private static async Task RunCyclesAsync(int cycles, int seed)
    {
        using var directory = new TempDirectory("kill-cmpxchg");
        var random = new Random(seed);
        var acknowledged = new SortedDictionary<long, uint>();
        for (var cycle = 0; cycle < cycles; cycle++)
        {
            var window = TimeSpan.FromMilliseconds(random.Next(300, 1500));
            using (var child = CrashWriterProcess.StartCompareExchange(directory.Path, seed * 100_000 + cycle))
            {
                await child.WaitForLineAsync("OPENED");
                await child.KillAfterAsync(window);
                foreach (var (number, checksum) in child.Acknowledged)
                    Assert.True(acknowledged.TryAdd(number, checksum), $"cycle {cycle}: entry {number} was acknowledged twice");
            }
            await CheckAsync(directory.Path, acknowledged, $"cycle {cycle} (killed {window.TotalMilliseconds} ms after opening)");
        }
        Assert.True(acknowledged.Count > cycles * 5, $"only {acknowledged.Count} entries were acknowledged in {cycles} cycles");
    }

    private static async Task CheckAsync(string path, SortedDictionary<long, uint> acknowledged, string where)
    {
        using var store = DocumentStore.Open(StorageOptions.ForPath(path) with { BackgroundFlush = false });
        store.Environment.Verify();
        long highest = 0;
        using (var reader = store.OpenReader())
        {
            foreach (var entry in reader.CompareExchangeStartingWith("", 0, int.MaxValue))
                highest = Math.Max(highest, entry.Index);
            foreach (var (number, checksum) in acknowledged)
            {
                var text = number.ToString(CultureInfo.InvariantCulture);
                Assert.True(reader.TryGetCompareExchange("crash/" + text, out var entry), $"{where}: acknowledged entry {number} is missing");
                Assert.True(Crc32C.Compute(entry!.Json) == checksum, $"{where}: entry {number} does not read back as it was sent");
                if (number % 2 == 0)
                {
                    Assert.True(reader.TryGet("crashdocs/" + text, out _), $"{where}: the document of batch {number} is missing");
                    Assert.True(reader.TryGetCompareExchange("rvn-atomic/crashdocs/" + text, out var guard), $"{where}: the guard of batch {number} is missing");
                    Assert.Equal(entry.Index, guard!.Index);
                }
            }
        }
        var probe = await store.PutCompareExchangeAsync("probe/" + Guid.NewGuid().ToString("N"), 0, Encoding.UTF8.GetBytes("""{"Object":null}"""));
        Assert.True(probe.Index > highest, $"{where}: a new entry took index {probe.Index}, not above the stored {highest}");
    }
}
