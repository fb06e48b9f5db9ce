namespace Folio.Server.Operations;

/// <summary>Where a tracked operation stands.</summary>
public enum OperationStatus
{
    /// <summary>Running: its batches are being written.</summary>
    InProgress,

    /// <summary>Every selected document was processed.</summary>
    Completed,

    /// <summary>Stopped by an error (a script failed on a document, a write failed); the batches before it stay committed.</summary>
    Faulted,

    /// <summary>Stopped by <c>operations/kill</c>; the batches before it stay committed.</summary>
    Cancelled,

    /// <summary>
    /// Stopped by a shutdown or crash of the server while running; the batches committed before it stay, and it is not
    /// resumed (rerunning a patch that is not idempotent, such as <c>this.Freight += 10</c>, would apply it twice).
    /// </summary>
    Interrupted,
}
