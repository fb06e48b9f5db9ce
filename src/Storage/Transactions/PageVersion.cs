namespace Folio.Storage.Transactions;

/// <summary>A page (or overflow run) as one committed transaction wrote it.</summary>
internal readonly record struct PageVersion(long TransactionId, long PageNumber, byte[] Buffer);
