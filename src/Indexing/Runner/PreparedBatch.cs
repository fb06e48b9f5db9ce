namespace Folio.Indexing.Runner;

/// <summary>The next stretch of the collections' changes, read into a processor's batch: <see cref="Changes"/> changes, everything up to <see cref="UpToEtag"/>.</summary>
internal sealed record PreparedBatch(IIndexBatch Batch, int Changes, long UpToEtag);
