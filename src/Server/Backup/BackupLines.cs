namespace Folio.Server.Backup;

/// <summary>
/// The lines of a backup file (gzipped NDJSON). Each file opens with the snapshot's static index definitions and
/// subscriptions, so restore learns them from the last file without reading it to the end, then holds the changes in
/// etag order:
/// <c>{"@index":definition}</c>, <c>{"@subscription":{"Name","Query","AcknowledgedEtag"}}</c>,
/// <c>{"@etag":n,"@id":"…","@document":{…}}</c>, <c>{"@etag":n,"@delete":{"Id","Collection"}}</c>.
/// The original etag on each change lets restore carry subscription positions into the new database's etags.
/// </summary>
internal static class BackupLines
{
    public static ReadOnlySpan<byte> Index => "@index"u8;

    public static ReadOnlySpan<byte> Subscription => "@subscription"u8;

    public static ReadOnlySpan<byte> Etag => "@etag"u8;

    public static ReadOnlySpan<byte> Id => "@id"u8;

    public static ReadOnlySpan<byte> Document => "@document"u8;

    public static ReadOnlySpan<byte> Delete => "@delete"u8;
}
