using Folio.Storage.Journal;
using Folio.Storage.Paging;

namespace Folio.Storage;

public sealed partial class StorageEnvironment
{
    /// <summary>
    /// Replays the journals into the data file: every record after the last applied transaction, in
    /// order, while each record's checksum holds and its id follows the previous one. Records of either
    /// format (raw only, or LZ4 compressed where that saved a block) are read. The first record
    /// that fails ends the replay: it is a commit that never returned, so nothing after it counts.
    /// Records at or before the applied transaction are skipped (recycled files still hold old ones).
    /// Returns the number the next journal file takes.
    /// </summary>
    private long Recover()
    {
        var header = FileHeader.ReadCurrent(Pager, _fileSystem.Description);
        _lastFlushed = header.LastFlushedTransaction;
        _headerSequence = header.Sequence;

        var names = _fileSystem.List(JournalWriter.Suffix);
        var lastApplied = _lastFlushed;
        var highestNumber = 0L;
        var recordHeader = new byte[TransactionRecord.HeaderSize];
        // Made with the first record replayed: a clean close leaves no journal, and a server opening a thousand small
        // databases would otherwise leave a page of garbage per environment on a heap it rarely collects.
        byte[] pageBuffer = [];
        byte[] stored = [];
        byte[] raw = [];
        foreach (var name in names)
        {
            if (long.TryParse(name.AsSpan(0, name.Length - JournalWriter.Suffix.Length), out var number))
                highestNumber = Math.Max(highestNumber, number);
            using var file = _fileSystem.Open(name);
            var length = file.Length;
            for (long position = 0; position + TransactionRecord.HeaderSize <= length;)
            {
                if (file.Read(position, recordHeader) != recordHeader.Length
                    || !TransactionRecord.TryReadHeader(recordHeader, out var record)
                    || record.StoredLength > length - position - TransactionRecord.HeaderSize)
                    break;
                if (record.TransactionId > lastApplied && record.TransactionId != lastApplied + 1)
                    break;
                if (stored.Length < record.StoredLength)
                    stored = new byte[record.StoredLength];
                var body = stored.AsSpan(0, (int)record.StoredLength);
                if (file.Read(position + TransactionRecord.HeaderSize, body) != body.Length || Platform.Crc32C.Compute(body) != record.PayloadCrc)
                    break;
                if (record.TransactionId > lastApplied)
                {
                    ReadOnlySpan<byte> payload = body;
                    if (record.Compressed)
                    {
                        if (raw.Length < record.RawLength)
                            raw = new byte[record.RawLength];
                        var decompressed = raw.AsSpan(0, (int)record.RawLength);
                        // The checksum held, so this is what was written: a block that does not decode is a bug, not a tear.
                        if (!RecordCompressor.TryDecompress(body, decompressed))
                            throw new CorruptionException($"Journal {name} holds transaction {record.TransactionId} compressed, and it does not decompress to its {record.RawLength} bytes.");
                        payload = decompressed;
                    }
                    TransactionRecord.ReadEntries(payload, record.Entries, ref pageBuffer, ReadRecoveredPages, ApplyRecoveredPage);
                    lastApplied = record.TransactionId;
                }
                position += TransactionRecord.Align(TransactionRecord.HeaderSize + record.StoredLength);
            }
        }

        // Written before anything this build journals, so an older build refuses the file instead of misreading it.
        if (lastApplied > _lastFlushed || header.FormatVersion < FileHeader.CurrentFormatVersion)
        {
            Pager.Sync();
            WriteHeader(lastApplied);
            _lastFlushed = lastApplied;
        }
        foreach (var name in names)
            _fileSystem.Delete(name);
        _fileSystem.FlushDirectory();
        return highestNumber + 1;
    }

    // A partial entry's pages as the data file holds them (zeros where it did not reach yet).
    private void ReadRecoveredPages(long pageNumber, int count, byte[] buffer)
    {
        Pager.EnsureCapacity(pageNumber + count);
        Pager.Read(pageNumber, count).CopyTo(buffer);
    }

    private void ApplyRecoveredPage(long pageNumber, byte[] buffer, int length)
    {
        Pager.EnsureCapacity(pageNumber + length / StorageLimits.PageSize);
        Pager.Write(pageNumber, buffer.AsSpan(0, length));
    }

    /// <summary>Writes the next header copy (alternating between pages 0 and 1) and syncs it.</summary>
    private void WriteHeader(long lastFlushed)
    {
        var sequence = ++_headerSequence;
        var pageNumber = sequence % 2;
        var page = new byte[StorageLimits.PageSize];
        new FileHeader(FileHeader.CurrentFormatVersion, StorageLimits.PageSize, lastFlushed, sequence).WriteTo(page, pageNumber);
        Pager.Write(pageNumber, page);
        Pager.Sync();
    }
}
