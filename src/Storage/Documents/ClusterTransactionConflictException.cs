namespace Folio.Storage.Documents;

/// <summary>
/// A cluster-wide batch whose compare-exchange entry or atomic guard was changed since the writer read it;
/// nothing of the batch was written.
/// </summary>
public sealed class ClusterTransactionConflictException(string message, Exception? inner = null) : StorageException(message, inner)
{
    /// <summary>The compare-exchange key (or the guarded document's atomic guard key) the conflict is on.</summary>
    public required string Key { get; init; }
}
