namespace Folio.Indexing.Runner;

/// <summary>A document an index could not take (a value its field cannot hold); the indexer went on without it.</summary>
public sealed record IndexError(DateTime At, string DocumentId, string Message);
