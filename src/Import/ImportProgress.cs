using System.Diagnostics;

namespace Folio.Import;

/// <summary>Counts shared between the sending stream and the progress display.</summary>
public sealed class ImportProgress
{
    private readonly long _started = Stopwatch.GetTimestamp();
    private long _documents;
    private long _bytes;
    private long _fileBytesRead;

    /// <summary>Creates the counts for files totalling <paramref name="totalFileBytes"/> bytes.</summary>
    /// <param name="totalFileBytes">The input files' total size, for the bar.</param>
    public ImportProgress(long totalFileBytes)
    {
        TotalFileBytes = totalFileBytes;
    }

    /// <summary>The input files' total size.</summary>
    public long TotalFileBytes { get; }

    /// <summary>Documents sent.</summary>
    public long Documents => Volatile.Read(ref _documents);

    /// <summary>Uncompressed body bytes sent.</summary>
    public long Bytes => Volatile.Read(ref _bytes);

    /// <summary>Input bytes read.</summary>
    public long FileBytesRead => Volatile.Read(ref _fileBytesRead);

    /// <summary>Time since the import began.</summary>
    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_started);

    internal void AddDocument() => Volatile.Write(ref _documents, _documents + 1);

    internal void AddBytes(long bytes) => Volatile.Write(ref _bytes, _bytes + bytes);

    internal void AddFileBytes(long bytes) => Volatile.Write(ref _fileBytesRead, _fileBytesRead + bytes);
}
