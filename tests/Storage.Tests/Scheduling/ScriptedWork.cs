using Folio.Storage.Scheduling;

namespace Folio.Storage.Tests.Scheduling;

/// <summary>Work whose turns run a script given by the test and are counted; it can stop itself like a disposed owner would.</summary>
internal sealed class ScriptedWork(WorkScheduler scheduler, Func<ScriptedWork, bool> turn, WorkGroup? group = null) : ScheduledWork(scheduler, group)
{
    private int _turns;

    /// <summary>Turns run so far.</summary>
    public int Turns => Volatile.Read(ref _turns);

    /// <summary>Stops the work's turns, waiting for the one in progress.</summary>
    public void Stop() => StopTurns();

    protected override bool RunTurn()
    {
        Interlocked.Increment(ref _turns);
        return turn(this);
    }
}
