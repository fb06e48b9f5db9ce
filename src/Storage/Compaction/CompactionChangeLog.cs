namespace Folio.Storage.Compaction;

/// <summary>
/// The keys written or deleted, per tree, while a compaction copies a snapshot: what the copy has to read
/// again before the swap. Only keys are kept (the value is read from a later snapshot), so a write that is
/// rolled back costs a needless re-read and nothing else. Touched by the one writer and by the compaction.
/// </summary>
internal sealed class CompactionChangeLog
{
    private readonly Lock _lock = new();
    private Dictionary<string, HashSet<byte[]>> _keys = new(StringComparer.Ordinal);
    private HashSet<string> _resetTrees = new(StringComparer.Ordinal);
    private int _count;

    /// <summary>Keys and tree resets recorded since the last <see cref="Take"/>.</summary>
    public int Count => Volatile.Read(ref _count);

    public void Record(string tree, ReadOnlySpan<byte> key)
    {
        // The root tree names the others; the copy compares tree lists instead of following its keys.
        if (tree.Length == 0)
            return;
        lock (_lock)
        {
            if (!_keys.TryGetValue(tree, out var keys))
                _keys[tree] = keys = new HashSet<byte[]>(ByteArrayEquality.Instance);
            if (keys.Add(key.ToArray()))
                _count++;
        }
    }

    public void RecordTreeReset(string tree)
    {
        lock (_lock)
        {
            if (_resetTrees.Add(tree))
                _count++;
        }
    }

    /// <summary>Hands over what was recorded and starts an empty log.</summary>
    public (Dictionary<string, HashSet<byte[]>> Keys, HashSet<string> ResetTrees) Take()
    {
        lock (_lock)
        {
            var taken = (_keys, _resetTrees);
            _keys = new Dictionary<string, HashSet<byte[]>>(StringComparer.Ordinal);
            _resetTrees = new HashSet<string>(StringComparer.Ordinal);
            _count = 0;
            return taken;
        }
    }

    private sealed class ByteArrayEquality : IEqualityComparer<byte[]>
    {
        public static readonly ByteArrayEquality Instance = new();

        public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(byte[] obj)
        {
            var hash = new HashCode();
            hash.AddBytes(obj);
            return hash.ToHashCode();
        }
    }
}
