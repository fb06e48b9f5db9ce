namespace Folio.Server.Changes;

/// <summary>The kinds of index change a WebSocket reports.</summary>
internal enum IndexChangeKind
{
    /// <summary>The index was created.</summary>
    Created,

    /// <summary>The index was deleted.</summary>
    Deleted,

    /// <summary>The index started over from the first document (a reset, or a rebuild that replaced it).</summary>
    Reset,

    /// <summary>The index indexed more documents, up to <see cref="IndexChange.Etag"/>.</summary>
    BatchCompleted,

    /// <summary>The index's priority was changed.</summary>
    PriorityChanged,

    /// <summary>The index's lock mode was changed.</summary>
    LockModeChanged,

    /// <summary>The index was disabled, paused, or stopped by an error.</summary>
    Paused,

    /// <summary>The index runs again after being disabled or paused.</summary>
    Resumed,
}
