using System.Buffers;
using System.Diagnostics;
using Folio.Storage.Platform;
using K4os.Compression.LZ4;

namespace Folio.Storage.Journal;

/// <summary>
/// Appends transaction records to zero-filled journal files and makes each durable before the
/// commit returns. Files whose every transaction the flusher has applied are recycled (renamed into
/// the next journal) rather than deleted, so the next file is already allocated on disk and its
/// syncs do not pay for block allocation. Once nothing has been appended for a while and every transaction is in the
/// data file, <see cref="ReleaseIdle"/> deletes them all, so the bytes a burst of writes journaled do not stay on disk.
/// Each new file is sized from the rate the last one filled at, about what is written in one flush interval (a power
/// of two from 1 MB up to the configured size): the flusher retires a file only once all of it is in the data file,
/// so a file much larger than what one flush applies keeps that many journaled bytes on disk for nothing. A large record
/// (<see cref="LargeRecordBytes"/>) takes a file of its own instead, which goes as soon as the record is applied.
/// </summary>
internal sealed class JournalWriter : IDisposable
{
    public const string Suffix = ".journal";
    private const int MaxSpareFiles = 2;
    private const long InitialAllocation = 1 << 20;

    /// <summary>The most a journal file's zero-filled part grows by at a time (<see cref="Grow"/>).</summary>
    private const long GrowthStep = 4L << 20;

    /// <summary>
    /// A record this large gets a journal file of its own, sized to it, and asks for a flush: applied, the file is
    /// deleted. A search index's batch (several MB of rewritten pages) is journaled and applied one by one instead of
    /// filling rate-sized files that stay on disk, with their spares, until all they hold is applied.
    /// </summary>
    public const long LargeRecordBytes = 4L << 20;

    // One zero buffer for every journal of the process, only ever read: a megabyte allocated per new journal went to
    // the large object heap, and thousands of databases starting journals made every collection a full one.
    private static readonly byte[] s_zeros = new byte[1 << 20];

    private readonly IStorageFileSystem _fileSystem;
    private readonly long _fileSize;
    private readonly long _fileSpanMilliseconds;
    private readonly RecordCompressor? _compressor;
    private readonly Lock _filesLock = new();
    private readonly List<JournalFile> _files = [];
    private readonly Queue<(string Name, long Length)> _spares = new();
    private JournalFile? _current;
    private long _windowStart = Stopwatch.GetTimestamp();
    private long _windowBytes;
    private long _lastWindowBytes;
    private long _nextNumber;
    private bool _appending;
    private bool _lastRecordOwnFile;
    // The newest transaction the data file's synced header holds, as the flusher last said (RetireUpTo).
    private long _appliedUpTo = -1;
    private long _lastAppendTicks = Environment.TickCount64;

    /// <param name="fileSystem">Where the journal files live.</param>
    /// <param name="fileSize">The largest a journal file gets (a larger record gets a file of its own size).</param>
    /// <param name="firstNumber">The number of the first file.</param>
    /// <param name="fileSpan">About how long of writing each file should hold: the flush interval.</param>
    /// <param name="compress">Whether records are LZ4 compressed when that saves a disk block.</param>
    public JournalWriter(IStorageFileSystem fileSystem, long fileSize, long firstNumber, TimeSpan fileSpan, bool compress)
    {
        _fileSystem = fileSystem;
        _fileSize = fileSize;
        _fileSpanMilliseconds = Math.Max(1, (long)fileSpan.TotalMilliseconds);
        _nextNumber = firstNumber;
        _compressor = compress ? new RecordCompressor() : null;
    }

    public static string NameOf(long number) => $"{number:D16}{Suffix}";

    /// <summary>Bytes written to journals since the environment opened (records with their padding).</summary>
    public long BytesWritten { get; private set; }

    /// <summary>Bytes the records' payloads held before compression, for the ratio compression gets.</summary>
    public long PayloadBytes { get; private set; }

    /// <summary>Bytes of the records' payloads as written (compressed or not).</summary>
    public long StoredPayloadBytes { get; private set; }

    /// <summary>The LZ4 acceleration the next record is compressed with (0 when records are not compressed).</summary>
    public int CompressionAcceleration => _compressor?.Acceleration ?? 0;

    /// <summary>Journal syncs since open: one per committed transaction.</summary>
    public long Syncs { get; private set; }

    public int FileCount
    {
        get
        {
            lock (_filesLock)
                return _files.Count;
        }
    }

    /// <summary>
    /// Writes one transaction's pages as a record and waits until it is durable; of the value heap runs in
    /// <paramref name="heapRanges"/> only the header, the slots and the given range of values.
    /// </summary>
    /// <returns>
    /// True when the record was large (<see cref="LargeRecordBytes"/>) and took a file of its own: applying it soon lets
    /// that file go (<see cref="RetireUpTo"/>) rather than keeping a large transaction's bytes on disk twice.
    /// </returns>
    public bool Append(long transactionId, Dictionary<long, byte[]> pages, Dictionary<long, (int Start, int End)> heapRanges)
    {
        var payloadSize = 0L;
        foreach (var (pageNumber, page) in pages)
        {
            payloadSize += heapRanges.TryGetValue(pageNumber, out var range)
                ? TransactionRecord.PartialEntrySize(Trees.HeapRun.SlotsEnd(page), range.Start, range.End)
                : TransactionRecord.EntrySize(page);
        }
        var recordSize = TransactionRecord.Align(TransactionRecord.HeaderSize + payloadSize);
        if (recordSize > int.MaxValue)
            throw new StorageException($"A transaction of {recordSize} bytes is larger than a journal record can hold.");
        // Rented for the one append rather than kept per writer: a process with thousands of environments (a database
        // and its indexes each) would otherwise hold a buffer each, a megabyte or more, whether or not they write.
        var rented = ArrayPool<byte>.Shared.Rent((int)recordSize);
        try
        {
            AppendRecord(transactionId, pages, heapRanges, rented.AsSpan(0, (int)recordSize));
            return _lastRecordOwnFile;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private void AppendRecord(long transactionId, Dictionary<long, byte[]> pages, Dictionary<long, (int Start, int End)> heapRanges, Span<byte> buffer)
    {
        var offset = TransactionRecord.HeaderSize;
        foreach (var (pageNumber, page) in pages)
        {
            offset += heapRanges.TryGetValue(pageNumber, out var range)
                ? TransactionRecord.WritePartialEntry(buffer[offset..], pageNumber, page, Trees.HeapRun.SlotsEnd(page), range.Start, range.End)
                : TransactionRecord.WriteEntry(buffer[offset..], pageNumber, page);
        }
        var payloadLength = offset - TransactionRecord.HeaderSize;
        byte[]? packed = _compressor?.TryCompress(buffer.Slice(TransactionRecord.HeaderSize, payloadLength), out offset);
        try
        {
            if (packed is null)
            {
                offset = TransactionRecord.HeaderSize + payloadLength;
                var raw = buffer[..(int)TransactionRecord.Align(offset)];
                raw[offset..].Clear();
                TransactionRecord.WriteHeader(raw, transactionId, pages.Count, raw[TransactionRecord.HeaderSize..offset], payloadLength, compressed: false);
                Write(transactionId, raw, payloadLength, offset - TransactionRecord.HeaderSize);
            }
            else
            {
                var record = packed.AsSpan(0, (int)TransactionRecord.Align(offset));
                record[offset..].Clear();
                TransactionRecord.WriteHeader(record, transactionId, pages.Count, record[TransactionRecord.HeaderSize..offset], payloadLength, compressed: true);
                Write(transactionId, record, payloadLength, offset - TransactionRecord.HeaderSize);
            }
        }
        finally
        {
            if (packed is not null)
                ArrayPool<byte>.Shared.Return(packed);
        }
    }

    private void Write(long transactionId, ReadOnlySpan<byte> record, int payloadLength, int storedLength)
    {
        var recordSize = record.Length;

        // Marked under the files' lock so that ReleaseIdle never deletes the file this record is going into.
        lock (_filesLock)
            _appending = true;
        try
        {
            WriteRecord(transactionId, record, recordSize, TransactionRecord.Align(TransactionRecord.HeaderSize + (long)payloadLength));
        }
        finally
        {
            lock (_filesLock)
            {
                _appending = false;
                _lastAppendTicks = Environment.TickCount64;
            }
        }
        PayloadBytes += payloadLength;
        StoredPayloadBytes += storedLength;
    }

    private void WriteRecord(long transactionId, ReadOnlySpan<byte> buffer, long recordSize, long rawRecordSize)
    {
        JournalFile file;
        try
        {
            file = FileFor(recordSize);
            _lastRecordOwnFile = recordSize >= LargeRecordBytes;
            if (file.Position + recordSize > file.Allocated)
                Grow(file, file.Position + recordSize);
        }
        catch (IOException e) when (Pal.IsDiskFull(e))
        {
            // Nothing of the record was written: the room for it is zero-filled first, so the journal is as it was.
            throw new DiskFullException($"The disk has no room for the journal record of transaction {transactionId} ({recordSize} bytes).", e);
        }
        var started = Stopwatch.GetTimestamp();
        file.File.Write(file.Position, buffer);
        file.File.Flush();
        _compressor?.Adjust(Stopwatch.GetTimestamp() - started, recordSize, rawRecordSize);
        Syncs++;
        file.Position += recordSize;
        file.LastRecordSize = recordSize;
        file.LastTransaction = transactionId;
        BytesWritten += recordSize;
        // A large record's file is its own and goes once applied; counted in the rate, it would size the files the
        // small records share for it, and a writer of large batches would keep a few of those (and spares) on disk.
        if (!_lastRecordOwnFile)
            MeasureRate(recordSize);
    }

    /// <summary>Counts the bytes of each file span (one flush interval) of writing, for <see cref="NextFileSize"/>.</summary>
    private void MeasureRate(long recordSize)
    {
        _windowBytes += recordSize;
        var elapsed = (long)Stopwatch.GetElapsedTime(_windowStart).TotalMilliseconds;
        if (elapsed < _fileSpanMilliseconds)
            return;
        // Scaled to one span: a window that closes late, after a pause, holds that pause too.
        _lastWindowBytes = _windowBytes * _fileSpanMilliseconds / elapsed;
        _windowBytes = 0;
        _windowStart = Stopwatch.GetTimestamp();
    }

    /// <summary>
    /// Retires the files that hold only applied transactions: every one before the file being written, and that one
    /// too when it has no room for another record its last one's size (a large transaction's file of its own), since
    /// the next record goes to a new file anyway and the applied one would otherwise stay on disk until then.
    /// </summary>
    public void RetireUpTo(long appliedTransaction)
    {
        lock (_filesLock)
        {
            _appliedUpTo = Math.Max(_appliedUpTo, appliedTransaction);
            while (_files.Count > 0 && _files[0].LastTransaction <= appliedTransaction && (_files.Count > 1 || CurrentIsSpent(_files[0])))
                RetireFirst();
        }
    }

    // Under the files' lock.
    private void RetireFirst()
    {
        var retired = _files[0];
        _files.RemoveAt(0);
        if (ReferenceEquals(retired, _current))
            _current = null;
        retired.File.Dispose();
        // Only a file of the size the rate picks now is taken again: one sized to a large record, or to a
        // faster rate than now (the end of a bulk load), would wait on disk, as large as it is, until the next
        // file is started or the journal goes idle, and then be deleted unused.
        if (_spares.Count < MaxSpareFiles && retired.Allocated == retired.Length && retired.Length == NextFileSize())
        {
            _spares.Enqueue((retired.Name, retired.Length));
            return;
        }
        try
        {
            _fileSystem.Delete(retired.Name);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Out of the list first: it holds only applied transactions, which recovery skips and then deletes. Disk,
            // not data; neither the flush nor the record that made the writer leave the file is failed for it.
        }
    }

    // Under the files' lock: no append is under way (the writer marks its appends under it), so the file is not
    // being chosen or written while it is retired.
    private bool CurrentIsSpent(JournalFile file) =>
        !_appending && file.LastRecordSize > 0 && file.Length - file.Position < file.LastRecordSize;

    /// <summary>
    /// Deletes every journal file and spare when nothing has been appended for <paramref name="idleMilliseconds"/> and
    /// every file holds only transactions up to <paramref name="appliedTransaction"/>, which the data file's synced header
    /// already records; the next append starts a new file.
    /// </summary>
    /// <returns>True when files were deleted.</returns>
    public bool ReleaseIdle(long appliedTransaction, long idleMilliseconds)
    {
        lock (_filesLock)
        {
            if (_appending || (_files.Count == 0 && _spares.Count == 0) || Environment.TickCount64 - _lastAppendTicks < idleMilliseconds)
                return false;
            foreach (var file in _files)
            {
                if (file.LastTransaction > appliedTransaction)
                    return false;
            }

            // Detached before any delete, so a delete that fails leaves no file the next append could write into.
            var names = new List<string>(_files.Count + _spares.Count);
            foreach (var file in _files)
            {
                file.File.Dispose();
                names.Add(file.Name);
            }
            _files.Clear();
            _current = null;
            _lastWindowBytes = 0;
            while (_spares.TryDequeue(out var spare))
                names.Add(spare.Name);
            foreach (var name in names)
            {
                try
                {
                    _fileSystem.Delete(name);
                }
                catch (IOException)
                {
                    // It holds only applied transactions, which recovery skips and then deletes: disk, not data.
                }
            }
            try
            {
                _fileSystem.FlushDirectory();
            }
            catch (IOException)
            {
                // A delete that does not survive a crash leaves the same harmless file.
            }
            return true;
        }
    }

    /// <summary>Deletes every journal file, for a close after the data file took in every transaction.</summary>
    public void DeleteAll()
    {
        lock (_filesLock)
        {
            foreach (var file in _files)
            {
                file.File.Dispose();
                _fileSystem.Delete(file.Name);
            }
            _files.Clear();
            _current = null;
            while (_spares.TryDequeue(out var spare))
                _fileSystem.Delete(spare.Name);
            _fileSystem.FlushDirectory();
        }
    }

    private JournalFile FileFor(long recordSize)
    {
        if (_current is not null && recordSize < LargeRecordBytes && _current.Position + recordSize <= _current.Length)
            return _current;
        var size = recordSize >= LargeRecordBytes ? recordSize : Math.Max(NextFileSize(), recordSize);
        var name = NameOf(_nextNumber++);
        IStorageFile file;
        lock (_filesLock)
        {
            // The files up to the one being left may hold only transactions the flusher applied while that one still
            // had room, so it could not retire them; they would stay on disk, whole, until its next round. Retired
            // first, the one being left can be taken again as the new file when it is the size the rate picks.
            while (_files.Count > 0 && _files[0].LastTransaction <= _appliedUpTo)
                RetireFirst();
            long allocated;
            if (TakeSpare(size) is { } spare)
            {
                _fileSystem.Rename(spare, name);
                file = _fileSystem.Open(name);
                allocated = size;
            }
            else
            {
                file = _fileSystem.Open(name);
                allocated = Math.Min(size, Math.Max(InitialAllocation, recordSize));
                try
                {
                    ZeroFill(file, 0, allocated);
                }
                catch (IOException)
                {
                    // A file that never held a record is removed and its number reused, so the journal stays contiguous.
                    file.Dispose();
                    _fileSystem.Delete(name);
                    _nextNumber--;
                    throw;
                }
            }
            _fileSystem.FlushDirectory();
            _current = new JournalFile(name, file, size) { Allocated = allocated };
            _files.Add(_current);
        }
        return _current;
    }

    /// <summary>
    /// What one flush interval of writing takes at the rate of the last whole interval (or of the one under way, when
    /// more), as a power of two between the initial allocation and the configured size, so spares of one size keep
    /// being reused.
    /// </summary>
    private long NextFileSize()
    {
        var wanted = Math.Max(_lastWindowBytes, _windowBytes);
        var size = Math.Min(InitialAllocation, _fileSize);
        while (size < wanted && size < _fileSize)
            size = Math.Min(size * 2, _fileSize);
        return size;
    }

    /// <summary>A spare of exactly <paramref name="size"/>, deleting those of other sizes (the rate moved on).</summary>
    private string? TakeSpare(long size)
    {
        while (_spares.TryDequeue(out var spare))
        {
            if (spare.Length == size)
                return spare.Name;
            _fileSystem.Delete(spare.Name);
        }
        return null;
    }

    /// <summary>
    /// Extends the zero-filled part of a journal by doubling up to <see cref="GrowthStep"/>, then by that step (up to
    /// its full size), so a small environment never writes a whole journal's worth of zeros, and the file a busy one is
    /// writing holds at most a step of zeros ahead of its records: doubling alone left up to half of a 64 MB file
    /// allocated and unused, which is what <c>du</c> shows of a live database.
    /// </summary>
    private static void Grow(JournalFile file, long needed)
    {
        var target = Math.Min(file.Length, Math.Max(needed, file.Allocated + Math.Min(file.Allocated, GrowthStep)));
        ZeroFill(file.File, file.Allocated, target);
        file.Allocated = target;
    }

    /// <summary>Writes zeros over a range once, so later record syncs only carry data, not block allocation.</summary>
    private static void ZeroFill(IStorageFile file, long from, long to)
    {
        ReadOnlySpan<byte> zeros = s_zeros;
        for (var offset = from; offset < to; offset += zeros.Length)
            file.Write(offset, zeros[..(int)Math.Min(zeros.Length, to - offset)]);
        file.Flush();
    }

    public void Dispose()
    {
        lock (_filesLock)
        {
            foreach (var file in _files)
                file.File.Dispose();
            _files.Clear();
            // Spares hold only applied transactions, which recovery skips, so one left behind by a failed
            // delete costs disk, not data; the rest are still tried.
            IOException? failure = null;
            while (_spares.TryDequeue(out var spare))
            {
                try
                {
                    _fileSystem.Delete(spare.Name);
                }
                catch (IOException e)
                {
                    failure ??= e;
                }
            }
            if (failure is not null)
                throw failure;
        }
    }

    private sealed class JournalFile(string name, IStorageFile file, long length)
    {
        public string Name { get; } = name;

        public IStorageFile File { get; } = file;

        public long Length { get; } = length;

        public long Position { get; set; }

        /// <summary>How much of the file is zero-filled so far; records beyond it grow it first.</summary>
        public long Allocated { get; set; }

        public long LastTransaction { get; set; } = -1;

        /// <summary>The size of the last record written to the file (0 before the first).</summary>
        public long LastRecordSize { get; set; }
    }
}
