using System.Runtime.InteropServices;
using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Scoring;

/// <summary>
/// Scores a union of one field's term scorers a window of ids at a time, for a collector that wants
/// every match with its score: each term adds its contribution for the window's ids into a score
/// array, then the collector reads the window's matches back in id order. Merging the lists id by id
/// costs a search for the smallest current id, and several virtual calls, per match; here each term's
/// postings are walked in a tight loop. A window is one block of the norms, so each block of field
/// lengths is read once, in place, for all the terms.
/// </summary>
internal sealed class WindowedDisjunction
{
    /// <summary>Ids per window: one norms block.</summary>
    public const int WindowSize = NormsColumn.BlockSize;

    // Most postings of a text field occur once in a field of a few dozen tokens: their scores are
    // looked up, by length, in a table each term fills from its own scorer (so they are the same bits).
    // A term with fewer postings than the table has entries scores them directly instead.
    private const int TabulatedLengths = 256;

    private readonly TermScorer[] _scorers;
    private readonly bool[] _live;
    private readonly NormsColumn? _norms;
    private readonly SearchScratch _scratch;
    private readonly byte[]?[] _singleOccurrenceScores;
    private float[] _scores;
    private ulong[] _present;
    private bool _started;

    private WindowedDisjunction(TermScorer[] scorers, NormsColumn? norms, SearchScratch scratch)
    {
        _scorers = scorers;
        _live = new bool[scorers.Length];
        _norms = norms;
        _scratch = scratch;
        (_scores, _present) = scratch.RentWindow();
        _singleOccurrenceScores = new byte[scorers.Length][];
        for (var i = 0; i < scorers.Length; i++)
        {
            if (scorers[i].Postings.Cost < TabulatedLengths)
                continue;
            var table = scratch.RentBuffer(TabulatedLengths * sizeof(float));
            var scores = AsScores(table);
            for (var length = 0; length < TabulatedLengths; length++)
                scores[length] = scorers[i].ScoreFor(1, length);
            _singleOccurrenceScores[i] = table;
        }
    }

    /// <summary>The first id of the current window; its matches are this plus each set bit of <see cref="Present"/>.</summary>
    public long WindowBase { get; private set; }

    /// <summary>One bit per id of the current window, set for the ids that match.</summary>
    public ReadOnlySpan<ulong> Present => _present;

    /// <summary>The summed score of each matching id of the current window, by its offset in the window.</summary>
    public ReadOnlySpan<float> Scores => _scores;

    /// <summary>
    /// A windowed walk over <paramref name="matches"/> when it is an unstarted term scorer or union of
    /// term scorers over one field's norms; null for any other shape, which the caller walks id by id.
    /// The walk consumes the scorers' postings: <paramref name="matches"/> must not be used after it.
    /// </summary>
    public static WindowedDisjunction? TryCreate(DocIdIterator matches, SearchScratch scratch)
    {
        TermScorer[] scorers;
        if (matches is TermScorer single && single.Current < 0)
        {
            scorers = [single];
        }
        else if (matches is OrIterator { IsUnstarted: true } union)
        {
            var children = union.Children;
            scorers = new TermScorer[children.Length];
            for (var i = 0; i < children.Length; i++)
            {
                if (children[i] is not TermScorer scorer || scorer.Current >= 0)
                    return null;
                scorers[i] = scorer;
            }
        }
        else
        {
            return null;
        }

        var norms = scorers[0].Norms;
        foreach (var scorer in scorers)
        {
            if (!ReferenceEquals(scorer.Norms?.Tree, norms?.Tree))
                return null;
        }
        return new WindowedDisjunction(scorers, norms, scratch);
    }

    /// <summary>Scores the next window that has a match; false when no match is left.</summary>
    public bool NextWindow()
    {
        if (_scores.Length == 0)
            return false;
        Array.Clear(_present);
        if (!_started)
        {
            _started = true;
            for (var i = 0; i < _scorers.Length; i++)
                _live[i] = _scorers[i].Postings.MoveNext();
        }

        var first = long.MaxValue;
        for (var i = 0; i < _scorers.Length; i++)
        {
            if (_live[i] && _scorers[i].Postings.Current < first)
                first = _scorers[i].Postings.Current;
        }
        if (first == long.MaxValue)
        {
            _scratch.ReturnWindow(_scores, _present);
            foreach (var table in _singleOccurrenceScores)
            {
                if (table is not null)
                    _scratch.Return(table);
            }
            _scores = [];
            _present = [];
            return false;
        }

        WindowBase = first & ~(long)(WindowSize - 1);
        var end = WindowBase + WindowSize;
        var norms = _norms is null ? default : _norms.StoredBlock(WindowBase / WindowSize);
        // Terms in the union's order, so each id's sum is added up in the order the merged walk adds it.
        for (var i = 0; i < _scorers.Length; i++)
        {
            if (!_live[i])
                continue;
            var scorer = _scorers[i];
            var postings = scorer.Postings;
            var table = _singleOccurrenceScores[i];
            var tabulated = table is null ? default : AsScores(table);
            var id = postings.Current;
            while (id < end)
            {
                var offset = (int)(id - WindowBase);
                var length = norms.IsEmpty ? 0 : NormsColumn.ReadLength(norms, offset);
                var frequency = postings.Frequency;
                var score = frequency == 1 && length < tabulated.Length ? tabulated[length] : scorer.ScoreFor(frequency, length);
                ref var word = ref _present[offset >> 6];
                var bit = 1UL << offset;
                if ((word & bit) == 0)
                {
                    word |= bit;
                    _scores[offset] = score;
                }
                else
                {
                    _scores[offset] += score;
                }
                if (!postings.MoveNext())
                {
                    _live[i] = false;
                    break;
                }
                id = postings.Current;
            }
        }
        return true;
    }

    /// <summary>A rented buffer seen as a term's table of single-occurrence scores by field length.</summary>
    private static Span<float> AsScores(byte[] table) => MemoryMarshal.Cast<byte, float>(table.AsSpan(0, TabulatedLengths * sizeof(float)));
}
