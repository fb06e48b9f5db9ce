namespace Folio.Storage.Documents;

/// <summary>
/// Where a record that shares its batch's last-modified time (<see cref="WriteTimes"/>) finds it: a reader, in its
/// snapshot, or a compaction, in the latest.
/// </summary>
internal interface IWriteTimeSource
{
    /// <summary>The ticks of the batch that wrote <paramref name="etag"/>.</summary>
    long TicksAt(long etag);
}
