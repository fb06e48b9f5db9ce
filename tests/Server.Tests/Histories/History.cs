namespace Folio.Server.Tests.Histories;

/// <summary>A finished history: its operations and the moments the server process was confirmed dead after each kill.</summary>
/// <param name="Operations">Every operation, in invocation order.</param>
/// <param name="Kills">When each killed process had exited, ascending, on the operations' clock.</param>
public sealed record History(IReadOnlyList<HistoryOperation> Operations, IReadOnlyList<long> Kills)
{
    /// <summary>
    /// The latest moment an operation of unknown outcome can have taken effect: the first kill after it began, since
    /// a dead process changes nothing afterwards; without one, it could still take effect at any time.
    /// </summary>
    /// <param name="operation">An operation.</param>
    /// <returns>A timestamp, or null for no bound.</returns>
    public long? EffectDeadline(HistoryOperation operation)
    {
        foreach (long kill in Kills)
        {
            if (kill > operation.Invoked)
                return kill;
        }

        return null;
    }
}
