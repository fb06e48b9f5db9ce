using System.Buffers;
using Folio.Storage.Platform;

namespace Folio.Storage.Journal;

/// <summary>
/// Appends transaction records to zero-filled journal files and makes each durable before the
/// commit returns. Files whose every transaction the flusher has applied are recycled (renamed into
/// the next journal) rather than deleted, so the next file is already allocated on disk and its
/// syncs do not pay for block allocation. Once nothing has been appended for a while and every transaction is in the
/// data file, <see cref="ReleaseIdle"/> deletes them all, so the bytes a burst of writes journaled do not stay on disk.
/// </summary>
internal sealed class JournalWriter : IDisposable
{
    public const string Suffix = ".journal";
    private const int MaxSpareFiles = 2;
    private const long InitialAllocation = 1 << 20;

    // One zero buffer for every journal of the process, only ever read: a megabyte allocated per new journal went to
    // the large object heap, and thousands of databases starting journals made every collection a full one.
    private static readonly byte[] s_zeros = new byte[1 << 20];

    private readonly IStorageFileSystem _fileSystem;
    private readonly long _fileSize;
    private readonly Lock _filesLock = new();
    private readonly List<JournalFile> _files = [];
    private readonly Queue<string> _spares = new();
    private JournalFile? _current;
    private long _nextNumber;
    private bool _appending;
    private long _lastAppendTicks = Environment.TickCount64;

    public JournalWriter(IStorageFileSystem fileSystem, long fileSize, long firstNumber)
    {
        _fileSystem = fileSystem;
        _fileSize = fileSize;
        _nextNumber = firstNumber;
    }

    public static string NameOf(long number) => $"{number:D16}{Suffix}";

    /// <summary>Bytes written to journals since the environment opened (records with their padding).</summary>
    public long BytesWritten { get; private set; }

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

    /// <summary>Writes one transaction's pages as a record and waits until it is durable.</summary>
    public void Append(long transactionId, Dictionary<long, byte[]> pages)
    {
        var payloadSize = 0L;
        foreach (var (_, page) in pages)
            payloadSize += TransactionRecord.EntrySize(page);
        var recordSize = TransactionRecord.Align(TransactionRecord.HeaderSize + payloadSize);
        if (recordSize > int.MaxValue)
            throw new StorageException($"A transaction of {recordSize} bytes is larger than a journal record can hold.");
        // Rented for the one append rather than kept per writer: a process with thousands of environments (a database
        // and its indexes each) would otherwise hold a buffer each, a megabyte or more, whether or not they write.
        var rented = ArrayPool<byte>.Shared.Rent((int)recordSize);
        try
        {
            AppendRecord(transactionId, pages, rented.AsSpan(0, (int)recordSize));
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    private void AppendRecord(long transactionId, Dictionary<long, byte[]> pages, Span<byte> buffer)
    {
        var recordSize = buffer.Length;
        var offset = TransactionRecord.HeaderSize;
        foreach (var (pageNumber, page) in pages)
            offset += TransactionRecord.WriteEntry(buffer[offset..], pageNumber, page);
        buffer[offset..].Clear();
        TransactionRecord.WriteHeader(buffer, transactionId, pages.Count, buffer[TransactionRecord.HeaderSize..offset]);

        // Marked under the files' lock so that ReleaseIdle never deletes the file this record is going into.
        lock (_filesLock)
            _appending = true;
        try
        {
            WriteRecord(transactionId, buffer, recordSize);
        }
        finally
        {
            lock (_filesLock)
            {
                _appending = false;
                _lastAppendTicks = Environment.TickCount64;
            }
        }
    }

    private void WriteRecord(long transactionId, ReadOnlySpan<byte> buffer, long recordSize)
    {
        JournalFile file;
        try
        {
            file = FileFor(recordSize);
            if (file.Position + recordSize > file.Allocated)
                Grow(file, file.Position + recordSize);
        }
        catch (IOException e) when (Pal.IsDiskFull(e))
        {
            // Nothing of the record was written: the room for it is zero-filled first, so the journal is as it was.
            throw new DiskFullException($"The disk has no room for the journal record of transaction {transactionId} ({recordSize} bytes).", e);
        }
        file.File.Write(file.Position, buffer);
        file.File.Flush();
        Syncs++;
        file.Position += recordSize;
        file.LastTransaction = transactionId;
        BytesWritten += recordSize;
    }

    /// <summary>Retires the files (other than the one being written) that hold only applied transactions.</summary>
    public void RetireUpTo(long appliedTransaction)
    {
        lock (_filesLock)
        {
            while (_files.Count > 1 && _files[0].LastTransaction <= appliedTransaction)
            {
                var retired = _files[0];
                _files.RemoveAt(0);
                retired.File.Dispose();
                if (_spares.Count < MaxSpareFiles && retired.Length == _fileSize && retired.Allocated == _fileSize)
                    _spares.Enqueue(retired.Name);
                else
                    _fileSystem.Delete(retired.Name);
            }
        }
    }

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
            while (_spares.TryDequeue(out var spare))
                names.Add(spare);
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
                _fileSystem.Delete(spare);
            _fileSystem.FlushDirectory();
        }
    }

    private JournalFile FileFor(long recordSize)
    {
        if (_current is not null && _current.Position + recordSize <= _current.Length)
            return _current;
        var size = Math.Max(_fileSize, recordSize);
        var name = NameOf(_nextNumber++);
        IStorageFile file;
        lock (_filesLock)
        {
            long allocated;
            if (size == _fileSize && _spares.TryDequeue(out var spare))
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
    /// Extends the zero-filled part of a journal by doubling (up to its full size), so a small
    /// environment never writes a whole journal's worth of zeros while a busy one soon stops growing.
    /// </summary>
    private static void Grow(JournalFile file, long needed)
    {
        var target = Math.Min(file.Length, Math.Max(needed, file.Allocated * 2));
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
                    _fileSystem.Delete(spare);
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
    }
}
