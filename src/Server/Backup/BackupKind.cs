namespace Folio.Server.Backup;

/// <summary>What a backup file holds.</summary>
public enum BackupKind
{
    /// <summary>Every document at the snapshot; a backup set starts with one.</summary>
    Full,

    /// <summary>The documents stored and deleted since the previous file of the set.</summary>
    Incremental,
}
