using Folio.Indexing.Queries.Iterators;
using Lucene.Net.Index;
using Lucene.Net.Search;
using LuceneQuery = Lucene.Net.Search.Query;

namespace Folio.Indexing.Engines.Lucene;

/// <summary>
/// A Lucene query's matches on one searcher as Folio's iterator: segment after segment, each document numbered
/// by its segment's base plus its number there (the searcher's entry ids), with the scorer's score.
/// </summary>
internal sealed class LuceneDocIdIterator : DocIdIterator
{
    private readonly IList<AtomicReaderContext> _leaves;
    private readonly Scorer?[] _scorers;
    private readonly long _cost;
    private int _leaf;

    public LuceneDocIdIterator(IndexSearcher searcher, LuceneQuery query)
    {
        var weight = searcher.CreateNormalizedWeight(query);
        _leaves = searcher.IndexReader.Leaves;
        _scorers = new Scorer?[_leaves.Count];
        for (var i = 0; i < _leaves.Count; i++)
        {
            var scorer = weight.GetScorer(_leaves[i], _leaves[i].AtomicReader.LiveDocs);
            _scorers[i] = scorer;
            if (scorer is not null)
                _cost += scorer.GetCost();
        }
    }

    /// <inheritdoc/>
    public override long Cost => _cost;

    /// <inheritdoc/>
    public override float Score => _leaf < _scorers.Length && _scorers[_leaf] is { } scorer ? scorer.GetScore() : 0;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        while (_leaf < _scorers.Length)
        {
            if (_scorers[_leaf] is { } scorer)
            {
                var doc = scorer.NextDoc();
                if (doc != DocIdSetIterator.NO_MORE_DOCS)
                {
                    Current = _leaves[_leaf].DocBase + (long)doc;
                    return true;
                }
            }
            _leaf++;
        }
        Current = NoMoreIds;
        return false;
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        while (_leaf < _scorers.Length)
        {
            var leaf = _leaves[_leaf];
            if (target < leaf.DocBase + (long)leaf.AtomicReader.MaxDoc && _scorers[_leaf] is { } scorer)
            {
                var local = (int)Math.Max(0, target - leaf.DocBase);
                var doc = scorer.DocID >= local ? scorer.DocID : scorer.Advance(local);
                if (doc != DocIdSetIterator.NO_MORE_DOCS)
                {
                    Current = leaf.DocBase + (long)doc;
                    return true;
                }
            }
            _leaf++;
        }
        Current = NoMoreIds;
        return false;
    }
}
