namespace Folio.Client.Indexes;

/// <summary>How far an index has got.</summary>
/// <param name="Name">The index's name.</param>
/// <param name="IsStale">Whether it has not indexed every write yet.</param>
/// <param name="ProcessedEtag">The etag it has indexed up to.</param>
/// <param name="LastDocEtag">The newest etag of the collections it reads.</param>
public sealed record IndexStatus(string Name, bool IsStale, long ProcessedEtag, long LastDocEtag);
