using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

public sealed partial class Database
{
    private int _compacting;
    private volatile CompactionResult? _lastCompaction;

    /// <summary>The last compaction that completed since the database opened, or null.</summary>
    public CompactionResult? LastCompaction => _lastCompaction;

    /// <summary>Claims the database's one compaction slot; false while a compaction runs.</summary>
    internal bool TryBeginCompaction() => Interlocked.CompareExchange(ref _compacting, 1, 0) == 0;

    /// <summary>Frees the slot <see cref="TryBeginCompaction"/> took, recording the result when it completed.</summary>
    internal void EndCompaction(CompactionResult? result)
    {
        if (result is not null)
            _lastCompaction = result;
        Volatile.Write(ref _compacting, 0);
    }
}
