namespace Folio.Benchmarks.Storage;

/// <summary>One file of a live database directory: its length and the bytes of blocks it holds.</summary>
internal sealed record LiveFile(string Path, long Length, long Allocated);
