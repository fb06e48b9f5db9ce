namespace Folio.Indexing.Documents;

/// <summary>
/// How an index's indexer is scheduled against the others' on the shared indexing threads: when they are all busy,
/// of every six batches three go to high, two to normal and one to low priority indexes.
/// </summary>
public enum IndexPriority
{
    /// <summary>One batch in six when the indexing threads are all busy: slowed, never starved.</summary>
    Low,

    /// <summary>Two batches in six when the indexing threads are all busy.</summary>
    Normal,

    /// <summary>Three batches in six when the indexing threads are all busy.</summary>
    High,
}
