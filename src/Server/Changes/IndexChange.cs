namespace Folio.Server.Changes;

/// <summary>What happened to index <paramref name="Name"/>; <paramref name="Etag"/> is the last etag it has indexed since.</summary>
internal readonly record struct IndexChange(string Name, IndexChangeKind Kind, long Etag);
