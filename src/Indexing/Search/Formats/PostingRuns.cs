using System.Buffers.Binary;
using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A field's recent postings, kept out of its terms tree (<see cref="PostingStore"/>) in runs
/// (<see cref="SearchIndex.PostingRunsTree"/>) until there are enough of them to merge in. A run holds what one batch
/// added to terms the field already had, one entry per term keyed by the batch's first entry id (8 bytes, big-endian)
/// and the term's key, whose value is the encoded list (<see cref="PostingsEncoder"/>). Entry ids only grow, so each of
/// a term's run entries holds ids above its main postings' and above its earlier runs': its postings are the main
/// ones, then its run entries in run order.
/// </summary>
/// <remarks>
/// <para>Each batch added a few ids to most terms of a text field, and a term's last chunk lives in its terms tree
/// entry, so every commit rewrote nearly every page of the terms trees: at 1M benchmark records in batches of 10,000,
/// 309 of the 510 MB of pages the load journaled (docs/benchmarks.md). A run is written in key order at the end of
/// its tree; once <see cref="MaxRuns"/> runs wait, a batch folds them into the terms tree, rewriting its pages once
/// for all of them.</para>
/// <para>Only a full-text field writes runs: an exact field's terms are counted whole from their headers for facets over
/// every entry, and with eight runs waiting over a field whose every term a batch touches (brands) that count took twice
/// as long (docs/benchmarks.md); the full-text terms trees are where most of the rewriting was.</para>
/// <para>A term keeps these rules, which its readers rely on: it has postings exactly when the terms tree has it (a
/// new term, or one whose main postings a batch empties, goes to the terms tree with its runs' ids); and a term whose
/// batch adds more than <see cref="EntryLimit"/> ids goes there at once with its runs' ids, so its main postings stay
/// below its run entries.</para>
/// </remarks>
internal sealed class PostingRuns : IPostingWriter
{
    /// <summary>The bytes of a run's prefix: the first entry id of the batch that wrote it.</summary>
    public const int PrefixSize = 8;

    /// <summary>The most runs a field keeps: a batch that would add one more folds them all into the terms tree first.</summary>
    public const int MaxRuns = 8;

    /// <summary>
    /// The most ids a batch adds to a term in a run: beyond it the term's additions (with its runs' ids) go to the terms
    /// tree, where they take a chunk of their own, so a run entry stays a small value of a leaf.
    /// </summary>
    public const int EntryLimit = PostingStore.ExtendLimit;

    /// <summary>
    /// The fewest leaf pages a terms tree has for batches to write runs: a smaller one takes a batch's postings itself,
    /// as rewriting all of it costs a commit at most 256 KB, and a small index's terms keep their postings in one place.
    /// </summary>
    public const int MinLeafPages = 32;

    private readonly WriteTransaction _transaction;
    private readonly string _runsTreeName;
    private readonly PostingStore _main;
    private readonly long _batchStart;
    private readonly List<long> _starts;
    private byte[] _key = new byte[PrefixSize + TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes)];
    // The current term's run entries: the index in _starts of each, and where its ids start in _ids.
    private readonly List<int> _termRuns = new(MaxRuns);
    private readonly List<int> _termRunOffsets = new(MaxRuns + 1);
    // Small to start, as most batches are: a batch's stores share pooled arrays (StoreBuffers) because each store's own
    // were most of what a small batch allocated; these grow to what the batch's terms hold in runs.
    private long[] _ids = new long[InitialCapacity];
    private int[] _frequencies = new int[InitialCapacity];
    private bool[] _removed = new bool[InitialCapacity];
    private byte[] _encoded = new byte[PostingStore.EncodedLength(InitialCapacity)];
    private const int InitialCapacity = 64;
    private readonly List<long> _mainRemovals = [];
    private Tree? _runs;
    private readonly bool _writesRuns;

    /// <summary>
    /// Readies the batch whose entries start at <paramref name="firstIdOfBatch"/> to change the postings of
    /// <paramref name="main"/>, with runs in the tree named <paramref name="runsTree"/> when the field is <paramref name="fullText"/>;
    /// when <see cref="MaxRuns"/> wait, folds them into <paramref name="main"/> at once and deletes their tree.
    /// </summary>
    public PostingRuns(WriteTransaction transaction, string runsTree, PostingStore main, long firstIdOfBatch, bool fullText)
    {
        _transaction = transaction;
        _runsTreeName = runsTree;
        _main = main;
        _batchStart = firstIdOfBatch;
        _runs = transaction.OpenTree(runsTree);
        _starts = Starts(_runs);
        if (_starts.Count > 0 && _starts[^1] >= firstIdOfBatch)
            throw new CorruptionException($"A run of postings starts at entry {_starts[^1]}, not below the batch's first entry {firstIdOfBatch}.");
        _writesRuns = fullText && main.LeafPages >= MinLeafPages;
        if (_starts.Count >= MaxRuns || (_starts.Count > 0 && !_writesRuns))
            FoldAll();
    }

    /// <inheritdoc/>
    public bool Apply(ReadOnlySpan<byte> term, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies, ReadOnlySpan<long> removals)
    {
        if (!additions.IsEmpty && additions[0] < _batchStart)
            throw new InvalidOperationException($"A posting of entry {additions[0]} is added in a batch whose entries start at {_batchStart}.");
        // Runs waiting in a tree that shrank below the size were folded in when the batch began.
        if (!_writesRuns)
            return _main.Apply(term, additions, frequencies, removals);
        if (_key.Length < PrefixSize + TermEncoding.MaxTermKeyLength(term.Length))
            Array.Resize(ref _key, PrefixSize + TermEncoding.MaxTermKeyLength(term.Length));
        var keyLength = PrefixSize + TermEncoding.TermKey(term, _key.AsSpan(PrefixSize));
        ReadOnlySpan<byte> termKey = _key.AsSpan(PrefixSize, keyLength - PrefixSize);
        var count = ReadTermRuns(keyLength);
        if (_termRuns.Count == 0)
        {
            if (additions.IsEmpty || additions.Length > EntryLimit || (removals.IsEmpty && !_main.Holds(termKey)))
                return _main.ApplyToKey(termKey, additions, frequencies, removals);
            // Main postings a batch empties leave the terms tree, so its additions go there rather than to a run.
            if (!removals.IsEmpty && !_main.ApplyToKey(termKey, [], [], removals))
                return _main.ApplyToKey(termKey, additions, frequencies, []);
            WriteRun(_batchStart, keyLength, additions, frequencies);
            return true;
        }
        RouteRemovals(count, removals);
        var mainKept = true;
        if (_mainRemovals.Count > 0)
            mainKept = _main.ApplyToKey(termKey, [], [], System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_mainRemovals));
        if (!mainKept || additions.Length > EntryLimit)
            return Fold(keyLength, count, additions, frequencies);
        RewriteChangedRuns(keyLength);
        if (!additions.IsEmpty)
            WriteRun(_batchStart, keyLength, additions, frequencies);
        return true;
    }

    /// <summary>Deletes the runs' tree once no run is left in it (the batch has written its postings).</summary>
    public void Finish()
    {
        if (_runs is not null && _runs.Count == 0)
        {
            _transaction.DeleteTree(_runsTreeName);
            _runs = null;
        }
    }

    /// <summary>The first entry ids of a field's runs, in order.</summary>
    public static List<long> Starts(Tree? runs)
    {
        var starts = new List<long>();
        if (runs is null || runs.Count == 0)
            return starts;
        var cursor = runs.CreateCursor();
        Span<byte> next = stackalloc byte[PrefixSize];
        var more = cursor.First();
        while (more)
        {
            var key = cursor.Key;
            if (key.Length <= PrefixSize + 1)
                throw new CorruptionException($"A run of postings has a key of {key.Length} bytes, too short for a run and a term.");
            var start = BinaryPrimitives.ReadInt64BigEndian(key);
            if (start < 0)
                throw new CorruptionException($"A run of postings starts at entry {start}.");
            starts.Add(start);
            if (start == long.MaxValue)
                break;
            BinaryPrimitives.WriteInt64BigEndian(next, start + 1);
            more = cursor.Seek(next);
        }
        return starts;
    }

    /// <summary>Writes run <paramref name="start"/>'s prefix before a term key that is already at <paramref name="key"/>[<see cref="PrefixSize"/>..].</summary>
    public static void WritePrefix(Span<byte> key, long start) => BinaryPrimitives.WriteInt64BigEndian(key, start);

    /// <summary>Decodes the current term's run entries, in run order, into the buffers; returns how many ids they hold.</summary>
    private int ReadTermRuns(int keyLength)
    {
        _termRuns.Clear();
        _termRunOffsets.Clear();
        var count = 0;
        if (_runs is null)
            return 0;
        for (var run = 0; run < _starts.Count; run++)
        {
            WritePrefix(_key, _starts[run]);
            if (!_runs.TryGet(_key.AsSpan(0, keyLength), out var stored))
                continue;
            var length = PostingsDecoder.GetCount(stored);
            EnsureCapacity(count + length);
            if (PostingsDecoder.Decode(stored, _ids.AsSpan(count), _frequencies.AsSpan(count)) != length)
                throw new CorruptionException("A run's posting list holds fewer ids than its header says.");
            _termRuns.Add(run);
            _termRunOffsets.Add(count);
            count += length;
        }
        _termRunOffsets.Add(count);
        return count;
    }

    /// <summary>
    /// Marks the removals found among the term's run ids; those below its first run id are for its main postings
    /// (<see cref="_mainRemovals"/>), and the others are ids the term does not have.
    /// </summary>
    private void RouteRemovals(int count, ReadOnlySpan<long> removals)
    {
        _mainRemovals.Clear();
        Array.Clear(_removed, 0, count);
        foreach (var id in removals)
        {
            var at = Array.BinarySearch(_ids, 0, count, id);
            if (at >= 0)
                _removed[at] = true;
            else if (id < _ids[0])
                _mainRemovals.Add(id);
        }
    }

    /// <summary>Rewrites each run entry of the term that lost ids (deleting one left empty).</summary>
    private void RewriteChangedRuns(int keyLength)
    {
        for (var r = 0; r < _termRuns.Count; r++)
        {
            var from = _termRunOffsets[r];
            var to = _termRunOffsets[r + 1];
            var kept = from;
            for (var i = from; i < to; i++)
            {
                if (_removed[i])
                    continue;
                _ids[kept] = _ids[i];
                _frequencies[kept] = _frequencies[i];
                kept++;
            }
            if (kept == to)
                continue;
            WritePrefix(_key, _starts[_termRuns[r]]);
            if (kept == from)
                _runs!.Delete(_key.AsSpan(0, keyLength));
            else
                WriteRun(_starts[_termRuns[r]], keyLength, _ids.AsSpan(from, kept - from), _frequencies.AsSpan(from, kept - from));
        }
    }

    /// <summary>Moves the term's run ids that are not removed, then its additions, into its main postings, deleting its run entries.</summary>
    private bool Fold(int keyLength, int count, ReadOnlySpan<long> additions, ReadOnlySpan<int> frequencies)
    {
        var kept = 0;
        for (var i = 0; i < count; i++)
        {
            if (_removed[i])
                continue;
            _ids[kept] = _ids[i];
            _frequencies[kept] = _frequencies[i];
            kept++;
        }
        EnsureCapacity(kept + additions.Length);
        additions.CopyTo(_ids.AsSpan(kept));
        frequencies.CopyTo(_frequencies.AsSpan(kept));
        foreach (var run in _termRuns)
        {
            WritePrefix(_key, _starts[run]);
            _runs!.Delete(_key.AsSpan(0, keyLength));
        }
        var total = kept + additions.Length;
        return _main.ApplyToKey(_key.AsSpan(PrefixSize, keyLength - PrefixSize), _ids.AsSpan(0, total), _frequencies.AsSpan(0, total), []);
    }

    /// <summary>Puts every run's postings into the terms tree, run by run (so each term's ids arrive in order), and deletes the runs.</summary>
    private void FoldAll()
    {
        var cursor = _runs!.CreateCursor();
        for (var more = cursor.First(); more; more = cursor.MoveNext())
        {
            // The key and value are copied out before the terms tree changes.
            var keyLength = cursor.Key.Length;
            if (keyLength > _key.Length)
                throw new CorruptionException($"A run of postings has a key of {keyLength} bytes, longer than any term's.");
            cursor.Key.CopyTo(_key);
            var count = PostingsDecoder.GetCount(cursor.Value);
            EnsureCapacity(count);
            PostingsDecoder.Decode(cursor.Value, _ids, _frequencies);
            _main.ApplyToKey(_key.AsSpan(PrefixSize, keyLength - PrefixSize), _ids.AsSpan(0, count), _frequencies.AsSpan(0, count), []);
        }
        _transaction.DeleteTree(_runsTreeName);
        _runs = null;
        _starts.Clear();
    }

    private void WriteRun(long start, int keyLength, ReadOnlySpan<long> ids, ReadOnlySpan<int> frequencies)
    {
        if (_encoded.Length < PostingStore.EncodedLength(ids.Length))
            _encoded = new byte[PostingStore.EncodedLength(ids.Length)];
        var length = PostingsEncoder.Encode(ids, _main.WithFrequencies ? frequencies : default, _encoded);
        _runs ??= _transaction.CreateTree(_runsTreeName);
        WritePrefix(_key, start);
        _runs.Put(_key.AsSpan(0, keyLength), _encoded.AsSpan(0, length));
    }

    private void EnsureCapacity(int count)
    {
        if (count <= _ids.Length)
            return;
        var size = Math.Max(count, _ids.Length * 2);
        Array.Resize(ref _ids, size);
        Array.Resize(ref _frequencies, size);
        Array.Resize(ref _removed, size);
    }
}
