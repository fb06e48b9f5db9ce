namespace Folio.Server.Tests.Histories;

/// <summary>The ways a history can contradict what Folio promises.</summary>
public enum AnomalyKind
{
    /// <summary>No order of a document's operations, each at an instant within its interval, explains every answer.</summary>
    NotLinearizable,

    /// <summary>A linearizability search ran out of budget: neither proven nor refuted, so not passed.</summary>
    Undecided,

    /// <summary>An acknowledged write is not in what survived: the final state holds an older version.</summary>
    LostWrite,

    /// <summary>A snapshot read saw one document of a batch at the batch's version and another at an older one.</summary>
    FracturedRead,
}

/// <summary>One anomaly, with the operations that show it.</summary>
/// <param name="Kind">What kind.</param>
/// <param name="Key">The document it is about.</param>
/// <param name="Detail">The operations and values, for a person to follow.</param>
public sealed record HistoryAnomaly(AnomalyKind Kind, string Key, string Detail)
{
    /// <inheritdoc />
    public override string ToString() => $"{Kind} on {Key}: {Detail}";
}
