using Folio.Storage.Tests.Model;
using Folio.Storage.Tests.Support;

namespace Folio.Storage.Tests.Faults;

/// <summary>
/// Loses power at every n-th device operation of a <see cref="PowerLossWorkload"/> and recovers from
/// what the disk kept: the recovered state must be exactly the state after some prefix of the
/// commits, holding every commit that returned before the power went (a commit in flight may be
/// there or not), and must verify and take further commits.
/// Slow tier: dotnet test tests/Storage.Tests --settings tests/slow.runsettings --filter "FullyQualifiedName~PowerLossTests"
/// </summary>
[Collection(HeavyTests.Name)]
public class PowerLossTests
{
    private static readonly CrashStrategy[] Strategies = Enum.GetValues<CrashStrategy>();

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void Recover_AfterPowerLossAtManyPoints_HoldsExactlyAPrefixWithEveryAcknowledgedCommit(int workloadSeed) =>
        CrashAtEveryPoint(workloadSeed, stride: 2, strategiesPerPoint: 1);

    [Theory]
    [Trait("Category", "Slow")]
    [InlineData(10)]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    [InlineData(14)]
    [InlineData(15)]
    public void Recover_AfterPowerLossAtEveryPointWithEveryStrategy_HoldsExactlyAPrefixWithEveryAcknowledgedCommit(int workloadSeed) =>
        CrashAtEveryPoint(workloadSeed, stride: 1, strategiesPerPoint: Strategies.Length * 2);

    /// <summary>
    /// Crashes after operation 1, 1 + stride, ... to the end of the workload, each with
    /// <paramref name="strategiesPerPoint"/> strategies (cycling through them, with different random choices each round).
    /// </summary>
    private static void CrashAtEveryPoint(int workloadSeed, int stride, int strategiesPerPoint)
    {
        var probe = new SimulatedPowerLossFileSystem();
        PowerLossWorkload.Run(probe, workloadSeed);
        var operations = probe.Operations;
        Assert.True(operations > 100, $"the workload made only {operations} device operations");
        int runs = 0, ended = 0;
        for (var point = 1L; point <= operations; point += stride)
        {
            for (var s = 0; s < strategiesPerPoint; s++)
            {
                runs++;
                if (!CrashAndRecover(workloadSeed, point, Strategies[(int)((point / stride + s) % Strategies.Length)], s))
                    ended++;
            }
        }
        // The journal sets its compression effort from how long compressing and writing took, so a record's size, and
        // with it the count of device operations, can differ from the probe's by a few near the end of the workload.
        Assert.True(ended * 50 <= runs, $"{ended} of {runs} runs of seed {workloadSeed} ended before the operation they were to lose power after");
    }

    /// <summary>Loses power after operation <paramref name="point"/> and checks the recovery; false when the workload ended before it.</summary>
    internal static bool CrashAndRecover(int workloadSeed, long point, CrashStrategy strategy, int round)
    {
        var fileSystem = new SimulatedPowerLossFileSystem();
        fileSystem.CrashAfter(point, strategy, seed: (int)(point * 7919 + round));
        var workload = PowerLossWorkload.Run(fileSystem, workloadSeed);
        if (!fileSystem.HasCrashed)
            return false;
        var where = $"Workload seed {workloadSeed}, power lost after {fileSystem.CrashOperation} ({strategy}, round {round}); " +
                    $"{workload.Acknowledged} commits acknowledged{(workload.CommitInFlight ? ", one in flight" : "")}";
        try
        {
            var options = workload.Options with { FileSystem = fileSystem.CrashImage };
            long recovered;
            using (var env = StorageEnvironment.Open(options))
            {
                recovered = env.LastCommittedTransactionId;
                var newest = workload.Acknowledged + (workload.CommitInFlight ? 1 : 0);
                ModelChecker.Expect(recovered >= workload.Acknowledged && recovered <= newest, where, $"recovered to transaction {recovered}, outside {workload.Acknowledged}..{newest}");
                using (var read = env.BeginRead())
                    ModelChecker.Check(TreeView.Of(read), workload.States[(int)recovered], new Random(0), $"the state of transaction {recovered}");
                env.Verify();

                using var tx = env.BeginWrite();
                tx.CreateTree("after").Put(Keys.Of("recovered"), Keys.Of(recovered.ToString()));
                tx.Commit();
                env.SimulateCrash();
            }
            using (var again = StorageEnvironment.Open(options))
            {
                ModelChecker.Expect(again.LastCommittedTransactionId == recovered + 1, where, "a commit after recovery did not survive a crash");
                using (var read = again.BeginRead())
                {
                    ModelChecker.Check(TreeView.Of(read), workload.States[(int)recovered], new Random(0), "after one more commit and crash");
                    ModelChecker.Expect(read.OpenTree("after")?.Contains(Keys.Of("recovered")) == true, where, "the commit after recovery is missing");
                }
                again.Verify();
            }
        }
        catch (Exception e) when (e is not ModelMismatchException)
        {
            throw new ModelMismatchException($"{where}: {e.GetType().Name}: {e.Message}", e);
        }
        return true;
    }
}
