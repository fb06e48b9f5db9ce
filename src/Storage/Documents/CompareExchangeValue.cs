namespace Folio.Storage.Documents;

/// <summary>
/// One compare-exchange entry: a durable value under a key (compared case-insensitively), with the index of the
/// transaction that last wrote it. Writers name the index they read to change or remove the entry, so a writer
/// that read an older value fails instead of overwriting a newer one.
/// </summary>
/// <param name="Key">The key as it was first written.</param>
/// <param name="Index">The index of the last write (a database-wide counter, never reused).</param>
/// <param name="Json">The stored JSON object (the seeds' clients send <c>{"Object":…,"@metadata":…}</c>).</param>
public sealed record CompareExchangeValue(string Key, long Index, byte[] Json);
