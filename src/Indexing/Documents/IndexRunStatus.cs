namespace Folio.Indexing.Documents;

/// <summary>Whether an index's indexer is working.</summary>
public enum IndexRunStatus
{
    /// <summary>It indexes changes as they come.</summary>
    Running,

    /// <summary>Stopped until started again, the index alone or all of its database's; not kept across restarts.</summary>
    Paused,

    /// <summary>Off until enabled again (<see cref="IndexSettings.Disabled"/>); kept across restarts.</summary>
    Disabled,

    /// <summary>An error stopped it.</summary>
    Error,
}
