namespace Folio.Storage.Journal;

/// <summary>What a journal record's header says about it (see <see cref="TransactionRecord"/>).</summary>
/// <param name="TransactionId">The transaction the record commits.</param>
/// <param name="Entries">Pages in its payload.</param>
/// <param name="StoredLength">Payload bytes on disk after the header.</param>
/// <param name="PayloadCrc">CRC-32C of the stored payload.</param>
/// <param name="RawLength">Payload bytes once decompressed (the stored length when raw).</param>
/// <param name="Compressed">Whether the stored payload is one LZ4 block.</param>
internal readonly record struct RecordHeader(long TransactionId, int Entries, long StoredLength, uint PayloadCrc, long RawLength, bool Compressed);
