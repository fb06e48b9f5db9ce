using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// The run entries of the terms a walk meets in key order (<see cref="TermRuns"/>): a cursor per run steps forward with
/// the walk, and the lowest term the cursors stand on tells in one comparison that no run holds a term below it. A term
/// before the last one asked for seeks again.
/// </summary>
/// <remarks>
/// Most terms of a walk are in no run (a run holds what one batch added). A lookup per run and term took a facet count
/// over every entry of a 1M-product index from about 1.5 to 3.3 ms at the median, and cursors stepping with the walk but
/// compared per run still cost twice the count without runs (docs/benchmarks.md).
/// </remarks>
internal sealed class TermRunsWalk
{
    // A cursor this many entries short of its target steps there; one further seeks.
    private const int StepsBeforeSeek = 8;

    private readonly TermRuns _runs;
    private readonly TreeCursor[] _cursors;
    // Per run: whether its cursor is on an entry of the run (false before the first use and once past the run's end).
    private readonly bool[] _positioned;
    private readonly bool[] _pastEnd;
    private byte[] _target;
    private byte[] _lastTermKey = [];
    private int _lastTermKeyLength = -1;
    // The lowest term key the positioned cursors stand on (length -1: none is left), recomputed after cursors moved.
    private byte[] _lowest = [];
    private int _lowestLength = -1;
    private bool _lowestStale = true;

    /// <summary>Walks <paramref name="runs"/>, opening a cursor per run on <paramref name="tree"/> (their tree).</summary>
    public TermRunsWalk(TermRuns runs, Tree tree)
    {
        _runs = runs;
        _cursors = new TreeCursor[runs.Count];
        for (var run = 0; run < _cursors.Length; run++)
            _cursors[run] = tree.CreateCursor();
        _positioned = new bool[runs.Count];
        _pastEnd = new bool[runs.Count];
        _target = new byte[PostingRuns.PrefixSize + TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes)];
    }

    /// <summary>How many runs the walk reads.</summary>
    public int Count => _cursors.Length;

    /// <summary>How many entries have the term whose key is <paramref name="termKey"/> in the runs.</summary>
    public long DocumentFrequency(ReadOnlySpan<byte> termKey)
    {
        if (!MayHold(termKey))
            return 0;
        long frequency = 0;
        for (var run = 0; run < _cursors.Length; run++)
        {
            if (TryGet(run, termKey, out var postings))
                frequency += PostingsDecoder.GetCount(postings);
        }
        return frequency;
    }

    /// <summary>
    /// The encoded list the term whose key is <paramref name="termKey"/> has in run <paramref name="run"/>, if any;
    /// valid until this walk is asked for another term.
    /// </summary>
    public bool TryGet(int run, ReadOnlySpan<byte> termKey, out ReadOnlySpan<byte> postings)
    {
        postings = default;
        Begin(termKey);
        _lowestStale = true;
        if (_pastEnd[run])
            return false;
        var length = PostingRuns.PrefixSize + termKey.Length;
        if (_target.Length < length)
            _target = new byte[length];
        PostingRuns.WritePrefix(_target, _runs.Start(run));
        termKey.CopyTo(_target.AsSpan(PostingRuns.PrefixSize));
        ReadOnlySpan<byte> target = _target.AsSpan(0, length);
        var cursor = _cursors[run];
        if (!_positioned[run])
        {
            if (!Land(run, cursor.Seek(target)))
                return false;
        }
        else
        {
            var steps = 0;
            while (cursor.Key.SequenceCompareTo(target) < 0)
            {
                var moved = ++steps > StepsBeforeSeek ? cursor.Seek(target) : cursor.MoveNext();
                if (!Land(run, moved))
                    return false;
            }
        }
        if (!cursor.Key.SequenceEqual(target))
            return false;
        postings = cursor.Value;
        if (postings.IsEmpty)
            throw new CorruptionException("A run's posting list is empty.");
        return true;
    }

    /// <summary>
    /// Whether a run may hold the term: false when each run's cursor stands past it. Every cursor stands on its run's
    /// first entry at or after the last term looked up, so a run whose entry there lies above this term lacks it.
    /// </summary>
    public bool MayHold(ReadOnlySpan<byte> termKey)
    {
        if (_lastTermKeyLength < 0 || termKey.SequenceCompareTo(_lastTermKey.AsSpan(0, _lastTermKeyLength)) < 0)
            return true;
        for (var run = 0; run < _cursors.Length; run++)
        {
            if (!_positioned[run] && !_pastEnd[run])
                return true;
        }
        if (_lowestStale)
            FindLowest();
        return _lowestLength >= 0 && termKey.SequenceCompareTo(_lowest.AsSpan(0, _lowestLength)) >= 0;
    }

    private void FindLowest()
    {
        _lowestLength = -1;
        var lowestRun = -1;
        for (var run = 0; run < _cursors.Length; run++)
        {
            if (!_positioned[run])
                continue;
            if (lowestRun < 0 || _cursors[run].Key[PostingRuns.PrefixSize..].SequenceCompareTo(_cursors[lowestRun].Key[PostingRuns.PrefixSize..]) < 0)
                lowestRun = run;
        }
        if (lowestRun >= 0)
        {
            var key = _cursors[lowestRun].Key[PostingRuns.PrefixSize..];
            if (_lowest.Length < key.Length)
                _lowest = new byte[key.Length];
            key.CopyTo(_lowest);
            _lowestLength = key.Length;
        }
        _lowestStale = false;
    }

    /// <summary>Notes the term asked for: one before the last puts every cursor back (the walk went back).</summary>
    private void Begin(ReadOnlySpan<byte> termKey)
    {
        var order = _lastTermKeyLength < 0 ? 1 : termKey.SequenceCompareTo(_lastTermKey.AsSpan(0, _lastTermKeyLength));
        if (order == 0)
            return;
        if (order < 0)
        {
            Array.Clear(_positioned);
            Array.Clear(_pastEnd);
        }
        if (_lastTermKey.Length < termKey.Length)
            _lastTermKey = new byte[termKey.Length];
        termKey.CopyTo(_lastTermKey);
        _lastTermKeyLength = termKey.Length;
    }

    // After a cursor moved: whether it is on an entry of the run (otherwise the run has no term at or after the target).
    private bool Land(int run, bool moved)
    {
        _positioned[run] = moved;
        if (!moved || !_cursors[run].Key.StartsWith(_target.AsSpan(0, PostingRuns.PrefixSize)))
        {
            _pastEnd[run] = true;
            _positioned[run] = false;
            return false;
        }
        return true;
    }
}
