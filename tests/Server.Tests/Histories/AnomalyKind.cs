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
