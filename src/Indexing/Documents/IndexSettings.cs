namespace Folio.Indexing.Documents;

/// <summary>
/// How an index is administered, apart from what it indexes: kept in the catalog beside its definition, so it survives
/// restarts, and carried over to the index that replaces it. Changing it never rebuilds the index.
/// </summary>
/// <param name="LockMode">What a put of a changed definition does.</param>
/// <param name="Priority">How the indexer is scheduled.</param>
/// <param name="Disabled">Whether the indexer is off until the index is enabled again (queries read what it had indexed).</param>
public sealed record IndexSettings(IndexLockMode LockMode = IndexLockMode.Unlock, IndexPriority Priority = IndexPriority.Normal, bool Disabled = false)
{
    /// <summary>An unlocked, normal-priority, enabled index's settings.</summary>
    public static IndexSettings Default { get; } = new();
}
