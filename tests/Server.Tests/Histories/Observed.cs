namespace Folio.Server.Tests.Histories;

/// <summary>One document as a read saw it.</summary>
/// <param name="Key">The document id.</param>
/// <param name="Value">The unique value of the write that made this version, or null when the document was missing.</param>
/// <param name="Batch">The batch that write belonged to, or null for a single write.</param>
/// <param name="Etag">The version's etag (from its change vector), 0 when missing.</param>
public sealed record Observed(string Key, string? Value, string? Batch, long Etag);
