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
}
