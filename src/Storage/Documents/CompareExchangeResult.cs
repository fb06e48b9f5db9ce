namespace Folio.Storage.Documents;

/// <summary>What a compare-exchange put or delete did.</summary>
/// <param name="Successful">Whether the expected index matched and the write happened.</param>
/// <param name="Index">
/// On success, the index the write took; on failure, the entry's current index, or -1 when there is no entry.
/// </param>
/// <param name="Json">
/// The value written (for a delete, the value removed, null when there was none); on failure, the current value
/// (null when there is no entry).
/// </param>
public sealed record CompareExchangeResult(bool Successful, long Index, byte[]? Json);
