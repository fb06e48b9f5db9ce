namespace Folio.Client.Changes;

/// <summary>Something that happened to an index, as the changes WebSocket reports it.</summary>
public sealed class IndexChange
{
    /// <summary>The index's name.</summary>
    public string Name { get; set; } = "";

    /// <summary><c>Created</c>, <c>Deleted</c>, <c>Reset</c> (the index started over) or <c>BatchCompleted</c> (indexed up to <see cref="Etag"/>).</summary>
    public string ChangeType { get; set; } = "";

    /// <summary>The etag the index has processed up to.</summary>
    public long Etag { get; set; }
}
