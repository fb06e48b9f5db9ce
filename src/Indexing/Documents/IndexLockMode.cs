namespace Folio.Indexing.Documents;

/// <summary>What a put of a changed definition does to an index.</summary>
public enum IndexLockMode
{
    /// <summary>The definition changes (the index is rebuilt side by side).</summary>
    Unlock,

    /// <summary>The put leaves the index as it is and reports no error.</summary>
    LockedIgnore,

    /// <summary>The put is refused, and nothing of it changes.</summary>
    LockedError,
}
