namespace Folio.Server.Tests.Histories;

/// <summary>One document write of an operation.</summary>
/// <param name="Key">The document id.</param>
/// <param name="Value">The unique value it writes.</param>
/// <param name="Expected">The value the document must hold for the write to apply (a compare-and-set), or null for a blind write.</param>
public sealed record KeyWrite(string Key, string Value, string? Expected);
