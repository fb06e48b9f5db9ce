using System.Text;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Storage.Compaction;

/// <summary>
/// Copies trees, entry by entry in key order, from a snapshot of one environment into another, committing
/// every few megabytes. Sequential inserts fill each leaf before starting the next, so the copy ends up with
/// dense pages whatever churn the source went through.
/// </summary>
internal sealed class TreeCopier(StorageEnvironment target, ICompactionValueRewriter? rewriter, CancellationToken cancellation) : IDisposable
{
    private const long BatchBytes = 16L << 20;
    private const int BatchEntries = 50_000;

    private readonly System.Buffers.ArrayBufferWriter<byte> _rewritten = new();
    private WriteTransaction? _transaction;
    private long _batchBytes;
    private int _batchEntries;
    private int _commits;

    /// <summary>Entries copied by <see cref="CopyTree"/> calls (catch-up puts not included).</summary>
    public long CopiedEntries { get; private set; }

    /// <summary>Key and value bytes written to the target so far.</summary>
    public long CopiedBytes { get; private set; }

    /// <summary>Called after every committed batch.</summary>
    public Action? Progressed { get; set; }

    /// <summary>The entries of every tree of <paramref name="source"/>.</summary>
    public static long CountEntries(PageTransaction source)
    {
        long total = 0;
        var cursor = source.RootTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            total += TreeHeader.ReadFrom(cursor.Value).EntryCount;
        return total;
    }

    /// <summary>Every tree of <paramref name="source"/>, in name order.</summary>
    public void CopyAll(PageTransaction source)
    {
        foreach (var name in TreeNames(source))
            CopyTree(source, name);
        Commit();
    }

    /// <summary>
    /// Brings the target to what <paramref name="source"/> holds for the keys and trees that changed: trees deleted
    /// or recreated are copied whole, trees that came or went are added or dropped, and each changed key is put
    /// with its value in <paramref name="source"/> or deleted when it has none there.
    /// </summary>
    public void Apply(PageTransaction source, Dictionary<string, HashSet<byte[]>> keys, HashSet<string> resetTrees)
    {
        var sourceTrees = new HashSet<string>(TreeNames(source), StringComparer.Ordinal);
        foreach (var name in TreeNames(Target.Pages))
        {
            if (!sourceTrees.Contains(name) || resetTrees.Contains(name))
                Target.Pages.DeleteTree(name);
        }
        var targetTrees = new HashSet<string>(TreeNames(Target.Pages), StringComparer.Ordinal);
        foreach (var name in sourceTrees)
        {
            if (!targetTrees.Contains(name))
                CopyTree(source, name);
        }
        foreach (var (name, changed) in keys)
        {
            if (!sourceTrees.Contains(name) || !targetTrees.Contains(name))
                continue;
            var from = source.OpenTree(name, 0)!;
            foreach (var key in changed)
            {
                var to = Target.Pages.OpenTree(name, 0)!;
                if (from.TryGet(key, out var value))
                    Put(name, to, key, value);
                else
                    to.Delete(key);
                Count(key.Length);
            }
        }
        Commit();
    }

    /// <summary>Commits what the current batch wrote.</summary>
    public void Commit()
    {
        if (_transaction is null)
            return;
        _transaction.Commit();
        _transaction = null;
        target.FlushIfDue();
        _commits++;
        _batchBytes = 0;
        _batchEntries = 0;
        Progressed?.Invoke();
    }

    public void Dispose() => _transaction?.Dispose();

    private WriteTransaction Target => _transaction ??= target.BeginWrite();

    private void CopyTree(PageTransaction source, string name)
    {
        var from = source.OpenTree(name, 0)!;
        var header = from.Header;
        var to = Target.Pages.CreateTree(name, header.Kind, header.FixedValueSize);
        var boundTo = _commits;
        var cursor = from.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            // A batch commit in Count ends the transaction the tree object was bound to.
            if (boundTo != _commits)
            {
                to = Target.Pages.OpenTree(name, 0)!;
                boundTo = _commits;
            }
            var value = cursor.Value;
            Put(name, to, cursor.Key, value);
            CopiedEntries++;
            Count(cursor.Key.Length + value.Length);
        }
    }

    private void Put(string treeName, Tree to, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (rewriter is not null)
        {
            _rewritten.ResetWrittenCount();
            if (rewriter.TryRewrite(treeName, key, value, _rewritten))
                value = _rewritten.WrittenSpan;
        }
        to.Put(key, value);
    }

    private void Count(int bytes)
    {
        CopiedBytes += bytes;
        _batchBytes += bytes;
        if (++_batchEntries < BatchEntries && _batchBytes < BatchBytes)
            return;
        cancellation.ThrowIfCancellationRequested();
        Commit();
    }

    private static List<string> TreeNames(PageTransaction transaction)
    {
        var names = new List<string>();
        var cursor = transaction.RootTree.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
            names.Add(Encoding.UTF8.GetString(cursor.Key));
        return names;
    }
}
