namespace Folio.Storage.Scheduling;

/// <summary>
/// What a <see cref="WorkScheduler"/> queue holds: a work of its own or a <see cref="WorkGroup"/>'s place in the
/// queue, either of which runs one turn when a thread takes it.
/// </summary>
internal interface IQueuedTurn
{
    /// <summary>Runs one turn on the calling scheduler thread.</summary>
    void Run();
}
