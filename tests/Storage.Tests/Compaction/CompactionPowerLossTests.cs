using Folio.Storage.Compaction;
using Folio.Storage.Tests.Faults;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Compaction;

/// <summary>
/// Loses power at every device operation of a compaction (and of two commits after it) and recovers from what
/// the disk kept: the database must be whole, hold exactly the state of an acknowledged commit (or of the one
/// in flight), verify, and carry no half-built compaction file.
/// </summary>
[Collection(HeavyTests.Name)]
public class CompactionPowerLossTests
{
    private static readonly CrashStrategy[] Strategies = Enum.GetValues<CrashStrategy>();

    [Theory]
    [InlineData(1, 3)]
    [InlineData(2, 5)]
    public void Recover_AfterPowerLossDuringCompaction_LeavesAWholeDatabase(int seed, int stride) => CrashAtEveryPoint(seed, stride, rounds: 1);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(3)]
    [InlineData(4)]
    public void Recover_AfterPowerLossAtEveryCompactionStepWithEveryStrategy_LeavesAWholeDatabase(int seed) => CrashAtEveryPoint(seed, stride: 1, rounds: Strategies.Length);

    private static void CrashAtEveryPoint(int seed, int stride, int rounds)
    {
        var probe = Workload.Run(new SimulatedPowerLossFileSystem(), seed);
        Assert.True(probe.Total - probe.BeforeCompaction > 50, $"the compaction made only {probe.Total - probe.BeforeCompaction} device operations");
        for (var point = probe.BeforeCompaction + 1; point <= probe.Total; point += stride)
        {
            for (var round = 0; round < rounds; round++)
                CrashAndRecover(seed, point, Strategies[(int)((point + round) % Strategies.Length)], round, probe.States);
        }
    }

    private static void CrashAndRecover(int seed, long point, CrashStrategy strategy, int round, List<SortedDictionary<string, string>> states)
    {
        var fileSystem = new SimulatedPowerLossFileSystem();
        fileSystem.CrashAfter(point, strategy, seed: (int)(point * 7919 + round));
        var run = Workload.Run(fileSystem, seed);
        Assert.True(fileSystem.HasCrashed, $"the workload ended before operation {point}");
        var where = $"seed {seed}, power lost after {fileSystem.CrashOperation} ({strategy}, round {round}), {run.Acknowledged} commits after the compaction acknowledged";
        var image = fileSystem.CrashImage;
        using var env = StorageEnvironment.Open(Workload.OptionsFor(image));
        var recovered = StorageDump.Of(env);
        var match = -1;
        for (var i = run.Acknowledged; i <= Math.Min(run.Acknowledged + 1, states.Count - 1); i++)
        {
            if (recovered.Count == states[i].Count && !recovered.Except(states[i]).Any())
                match = i;
        }
        Assert.True(match >= 0, $"{where}: the recovered trees match no acknowledged state");
        env.Verify();
        Assert.False(image.Exists(CompactionFileSystem.DataFileName), $"{where}: the half-built file was left");
        using var tx = env.BeginWrite();
        tx.CreateTree("after").Put(Keys.Of("k"), Keys.Of("v"));
        tx.Commit();
    }

    /// <summary>Churn, a compaction, then two commits, on one simulated device; records each state and the device's operation counts.</summary>
    private sealed class Workload
    {
        public List<SortedDictionary<string, string>> States { get; } = [];

        public long BeforeCompaction { get; private set; }

        public long Total { get; private set; }

        /// <summary>Commits after the compaction that returned before the power was lost.</summary>
        public int Acknowledged { get; private set; }

        public static StorageOptions OptionsFor(Platform.IStorageFileSystem fileSystem) =>
            new() { FileSystem = fileSystem, BackgroundFlush = false, JournalFileSize = 256 << 10 };

        public static Workload Run(SimulatedPowerLossFileSystem fileSystem, int seed)
        {
            var workload = new Workload();
            var env = StorageEnvironment.Open(OptionsFor(fileSystem));
            try
            {
                StorageDump.Churn(env, 600, seed);
                env.FlushToDataFile();
                workload.States.Add(StorageDump.Of(env));
                workload.BeforeCompaction = fileSystem.Operations;
                env.Compact();
                for (var k = 1; k <= 2; k++)
                {
                    using (var tx = env.BeginWrite())
                    {
                        tx.CreateTree("docs").Put(Keys.Of($"after/{k}"), Keys.Value(k, 200));
                        tx.Commit();
                    }
                    if (!fileSystem.HasCrashed)
                        workload.Acknowledged = k;
                    workload.States.Add(StorageDump.Of(env));
                }
                workload.Total = fileSystem.Operations;
            }
            finally
            {
                env.SimulateCrash();
            }
            return workload;
        }
    }
}
