using Folio.Storage.Compaction;

namespace Folio.Server.Databases;

public sealed partial class Database
{
    /// <summary>What a compaction of the documents' file names as its target (an index's is named <c>index:{name}</c>).</summary>
    internal const string DocumentsTarget = "compact";

    private int _compacting;
    private volatile CompactionResult? _lastCompaction;

    /// <summary>The last compaction that completed since the database opened, or null.</summary>
    public CompactionResult? LastCompaction => _lastCompaction;

    /// <summary>Claims the database's one compaction slot (its documents and indexes share it); false while a compaction runs.</summary>
    internal bool TryBeginCompaction() => Interlocked.CompareExchange(ref _compacting, 1, 0) == 0;

    /// <summary>Frees the slot <see cref="TryBeginCompaction"/> took, recording the result when the documents' compaction completed.</summary>
    internal void EndCompaction(CompactionResult? result, string target = DocumentsTarget)
    {
        if (result is not null && target == DocumentsTarget)
            _lastCompaction = result;
        Volatile.Write(ref _compacting, 0);
    }
}
