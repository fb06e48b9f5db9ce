namespace Folio.Storage.Scheduling;

/// <summary>
/// How often a <see cref="ScheduledWork"/> gets a turn when the scheduler's threads are all busy: of every six turns,
/// high priority work gets three, normal two and low one, so low priority work is slowed, never starved.
/// </summary>
public enum WorkPriority
{
    /// <summary>One turn in six when everything is busy.</summary>
    Low,

    /// <summary>Two turns in six when everything is busy.</summary>
    Normal,

    /// <summary>Three turns in six when everything is busy.</summary>
    High,
}
