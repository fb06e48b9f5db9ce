using System.Text.Json;

namespace Folio.Server.Backup;

/// <summary>
/// One file of a backup set as its manifest records it: a full backup, or an incremental one holding the changes after
/// <see cref="FromEtag"/> through <see cref="ToEtag"/>, with the length and XxHash64 that restore checks before it
/// creates anything.
/// </summary>
/// <param name="Name">The file's name inside the backup directory.</param>
/// <param name="Kind"><see cref="BackupKind.Full"/> or <see cref="BackupKind.Incremental"/>.</param>
/// <param name="FromEtag">The last etag the files before this one hold (0 for a full backup).</param>
/// <param name="ToEtag">The database's last etag when this backup's snapshot was taken.</param>
/// <param name="Documents">Document lines in the file.</param>
/// <param name="Deletes">Delete lines in the file (an incremental backup's tombstones).</param>
/// <param name="Indexes">Index definitions in the file (every static index at the snapshot).</param>
/// <param name="Subscriptions">Subscriptions in the file (every subscription at the snapshot).</param>
/// <param name="Bytes">The file's length on disk.</param>
/// <param name="XxHash64">The XxHash64 of the file's bytes, as 16 hex digits.</param>
/// <param name="CreatedAt">When the snapshot was taken (UTC).</param>
public sealed record BackupFile(
    string Name,
    BackupKind Kind,
    long FromEtag,
    long ToEtag,
    long Documents,
    long Deletes,
    int Indexes,
    int Subscriptions,
    long Bytes,
    string XxHash64,
    DateTime CreatedAt)
{
    /// <summary>Writes what the manifest and the backup's answer share: the kind, the etag range, the counts and the checksum.</summary>
    internal void WriteContent(Utf8JsonWriter writer)
    {
        writer.WriteString("Kind"u8, Kind.ToString());
        writer.WriteNumber("FromEtag"u8, FromEtag);
        writer.WriteNumber("ToEtag"u8, ToEtag);
        writer.WriteNumber("Documents"u8, Documents);
        writer.WriteNumber("Deletes"u8, Deletes);
        writer.WriteNumber("Indexes"u8, Indexes);
        writer.WriteNumber("Subscriptions"u8, Subscriptions);
        writer.WriteNumber("Bytes"u8, Bytes);
        writer.WriteString("XxHash64"u8, XxHash64);
    }
}
