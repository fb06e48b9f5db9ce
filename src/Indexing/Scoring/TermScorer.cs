using Folio.Indexing.Queries.Iterators;
using Folio.Indexing.Search;

namespace Folio.Indexing.Scoring;

/// <summary>A term's postings that score each entry by BM25, reading the entry's field length from the norms.</summary>
public sealed class TermScorer : DocIdIterator
{
    private readonly TermIterator _postings;
    private readonly NormsColumn? _norms;
    private readonly double _idf;
    private readonly double _averageLength;

    internal TermScorer(TermIterator postings, NormsColumn? norms, long documentCount, double averageLength)
    {
        _postings = postings;
        _norms = norms;
        _idf = Bm25.Idf(postings.DocumentFrequency, documentCount);
        _averageLength = averageLength;
    }

    /// <inheritdoc/>
    public override long Cost => _postings.Cost;

    /// <inheritdoc/>
    public override float Score => ScoreFor(_postings.Frequency, _norms?.Get(Current) ?? 0);

    /// <summary>The postings the scorer walks.</summary>
    internal TermIterator Postings => _postings;

    /// <summary>The field lengths, or null when the field keeps none.</summary>
    internal NormsColumn? Norms => _norms;

    /// <summary>
    /// The term's score in an entry where it occurs <paramref name="frequency"/> times in a field of
    /// <paramref name="length"/> tokens (0: unknown, taken as the average). Every way of scoring goes
    /// through here, so a windowed sum and a merged one agree to the bit.
    /// </summary>
    internal float ScoreFor(int frequency, int length)
    {
        if (length == 0)
            length = (int)Math.Round(_averageLength);
        return (float)Bm25.Score(_idf, frequency, length, _averageLength);
    }

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        var moved = _postings.MoveNext();
        Current = _postings.Current;
        return moved;
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        var moved = _postings.Advance(target);
        Current = _postings.Current;
        return moved;
    }
}
