namespace Folio.Storage.Compaction;

/// <summary>Where a compaction is.</summary>
public enum CompactionPhase
{
    /// <summary>Copying a snapshot of every tree into the new file; reads and writes go on.</summary>
    Copying,

    /// <summary>Copying again what writes changed since the snapshot; reads and writes go on.</summary>
    CatchingUp,

    /// <summary>Writes wait while the last changes are copied and the new file replaces the old one.</summary>
    Swapping,

    /// <summary>The new file is in place.</summary>
    Completed,
}
