namespace Folio.Indexing.Documents;

/// <summary>How an index's indexer is scheduled against the others' (the priority of its thread).</summary>
public enum IndexPriority
{
    /// <summary>Below the other threads.</summary>
    Low,

    /// <summary>As the other threads.</summary>
    Normal,

    /// <summary>Above the other threads.</summary>
    High,
}
