using Folio.Storage.Scheduling;

namespace Folio.Storage.Tests.Scheduling;

/// <summary>
/// The shared scheduler's fairness and its turn protocol, on a scheduler of one thread unless said otherwise, where
/// the order of turns is what fairness decides and nothing else.
/// </summary>
public sealed class WorkSchedulerTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task Schedule_WhileOtherWorkAlwaysHasMore_RunsRightAfterItsCurrentTurn()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 1);
        var ran = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        ScriptedWork? quiet = null;
        // The busy work's tenth turn schedules the other, as a write to another database would arrive meanwhile.
        var busy = new ScriptedWork(scheduler, self =>
        {
            if (self.Turns == 10)
                quiet!.Schedule();
            return true;
        });
        quiet = new ScriptedWork(scheduler, _ =>
        {
            ran.TrySetResult(busy.Turns);
            return false;
        });
        try
        {
            busy.Schedule();

            Assert.Equal(10, await ran.Task.WaitAsync(Timeout));
        }
        finally
        {
            busy.Stop();
            quiet.Stop();
        }
    }

    [Fact]
    public async Task Run_ThreeBusyWorksOfEachPriority_ShareTurnsThreeTwoOne()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 1);
        var gate = new ManualResetEventSlim(false);
        // The shares are counted over the first turns only: the works keep running while the test reads and stops them.
        const int Counted = 600;
        var order = new List<WorkPriority>(Counted);
        bool Record(WorkPriority priority)
        {
            lock (order)
            {
                if (order.Count < Counted)
                    order.Add(priority);
                return order.Count < Counted;
            }
        }
        var high = new ScriptedWork(scheduler, _ => gate.Wait(Timeout) && Record(WorkPriority.High)) { Priority = WorkPriority.High };
        var normal = new ScriptedWork(scheduler, _ => Record(WorkPriority.Normal)) { Priority = WorkPriority.Normal };
        var low = new ScriptedWork(scheduler, _ => Record(WorkPriority.Low)) { Priority = WorkPriority.Low };
        try
        {
            // The first turn holds the only thread until all three are queued, so every turn after it chooses among all three.
            high.Schedule();
            await WaitUntil(() => high.Turns == 1);
            normal.Schedule();
            low.Schedule();
            gate.Set();
            await WaitUntil(() => { lock (order) return order.Count == Counted; });

            int highTurns = 0, normalTurns = 0, lowTurns = 0;
            lock (order)
            {
                foreach (var priority in order)
                {
                    if (priority == WorkPriority.High)
                        highTurns++;
                    else if (priority == WorkPriority.Normal)
                        normalTurns++;
                    else
                        lowTurns++;
                }
            }
            Assert.InRange(highTurns / (double)Counted, 0.45, 0.55);
            Assert.InRange(normalTurns / (double)Counted, 0.28, 0.39);
            Assert.InRange(lowTurns / (double)Counted, 0.12, 0.22);
        }
        finally
        {
            high.Stop();
            normal.Stop();
            low.Stop();
        }
    }

    [Fact]
    public async Task Run_GroupOfThreeBusyWorksAndASingleBusyWork_ShareTurnsEvenly()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 1);
        var gate = new ManualResetEventSlim(false);
        // Counted over the first turns only, as above; the group's works must also take its turns in rotation.
        const int Counted = 600;
        var order = new List<ScriptedWork>(Counted);
        bool Record(ScriptedWork work)
        {
            lock (order)
            {
                if (order.Count < Counted)
                    order.Add(work);
                return order.Count < Counted;
            }
        }
        var database = new WorkGroup(scheduler);
        var first = new ScriptedWork(scheduler, self => gate.Wait(Timeout) && Record(self), database);
        var grouped = new[] { first, new ScriptedWork(scheduler, Record, database), new ScriptedWork(scheduler, Record, database) };
        var single = new ScriptedWork(scheduler, Record, new WorkGroup(scheduler));
        try
        {
            // The first turn holds the only thread until every work is queued, so every turn after it chooses among all.
            first.Schedule();
            await WaitUntil(() => first.Turns == 1);
            grouped[1].Schedule();
            grouped[2].Schedule();
            single.Schedule();
            gate.Set();
            await WaitUntil(() => { lock (order) return order.Count == Counted; });

            int singleTurns = 0;
            var groupedTurns = new int[grouped.Length];
            lock (order)
            {
                foreach (var work in order)
                {
                    if (work == single)
                        singleTurns++;
                    else
                        groupedTurns[Array.IndexOf(grouped, work)]++;
                }
            }
            Assert.InRange(singleTurns / (double)Counted, 0.45, 0.55);
            foreach (var turns in groupedTurns)
                Assert.InRange(turns / (double)Counted, 0.13, 0.20);
        }
        finally
        {
            foreach (var work in grouped)
                work.Stop();
            single.Stop();
        }
    }

    [Fact]
    public async Task Run_GroupedWorks_RunAtOnceOnIdleThreads()
    {
        // Sharing a place in the queue is about who goes first when threads are short, not a lock: with threads free,
        // a database's indexes still run side by side.
        using var scheduler = new WorkScheduler("test scheduler", threads: 3);
        var release = new ManualResetEventSlim(false);
        var running = 0;
        var database = new WorkGroup(scheduler);
        var works = new ScriptedWork[3];
        for (var i = 0; i < works.Length; i++)
        {
            works[i] = new ScriptedWork(scheduler, _ =>
            {
                Interlocked.Increment(ref running);
                release.Wait(Timeout);
                return false;
            }, database);
        }
        try
        {
            foreach (var work in works)
                work.Schedule();

            await WaitUntil(() => Volatile.Read(ref running) == 3);
        }
        finally
        {
            release.Set();
            foreach (var work in works)
                work.Stop();
        }
    }

    [Fact]
    public async Task Schedule_DuringATurnThatFindsNothingMore_RunsAnotherTurn()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 2);
        var second = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var work = new ScriptedWork(scheduler, self =>
        {
            if (self.Turns == 1)
                self.Schedule();
            else
                second.TrySetResult(self.Turns);
            return false;
        });
        try
        {
            work.Schedule();

            Assert.Equal(2, await second.Task.WaitAsync(Timeout));
        }
        finally
        {
            work.Stop();
        }
    }

    [Fact]
    public async Task StopTurns_DuringATurn_WaitsForItAndRunsNoMore()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 2);
        var inTurn = new ManualResetEventSlim(false);
        var release = new ManualResetEventSlim(false);
        var turnEnded = false;
        var work = new ScriptedWork(scheduler, _ =>
        {
            inTurn.Set();
            release.Wait(Timeout);
            Volatile.Write(ref turnEnded, true);
            return true;
        });
        work.Schedule();
        Assert.True(inTurn.Wait(Timeout));

        var stopping = Task.Run(work.Stop);
        Assert.False(stopping.IsCompleted);
        release.Set();
        await stopping.WaitAsync(Timeout);

        Assert.True(Volatile.Read(ref turnEnded));
        var turns = work.Turns;
        work.Schedule();
        // A probe queued behind it proves the scheduler had its chance to run another turn.
        var probed = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var probe = new ScriptedWork(scheduler, _ =>
        {
            probed.TrySetResult(0);
            return false;
        });
        probe.Schedule();
        await probed.Task.WaitAsync(Timeout);
        Assert.Equal(turns, work.Turns);
    }

    [Fact]
    public async Task ThreadCount_Raised_RunsThatManyTurnsAtOnce()
    {
        using var scheduler = new WorkScheduler("test scheduler", threads: 1);
        var release = new ManualResetEventSlim(false);
        var running = 0;
        var works = new ScriptedWork[3];
        for (var i = 0; i < works.Length; i++)
        {
            works[i] = new ScriptedWork(scheduler, _ =>
            {
                Interlocked.Increment(ref running);
                release.Wait(Timeout);
                return false;
            });
        }
        try
        {
            scheduler.ThreadCount = 3;
            foreach (var work in works)
                work.Schedule();

            await WaitUntil(() => Volatile.Read(ref running) == 3);
        }
        finally
        {
            release.Set();
            foreach (var work in works)
                work.Stop();
        }
    }

    private static async Task WaitUntil(Func<bool> condition)
    {
        var deadline = DateTime.UtcNow + Timeout;
        while (!condition())
        {
            Assert.True(DateTime.UtcNow < deadline, "the condition did not hold in time");
            await Task.Delay(1);
        }
    }
}
