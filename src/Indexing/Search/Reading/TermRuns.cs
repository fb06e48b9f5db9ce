using Folio.Indexing.Postings;
using Folio.Storage;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// A field's runs of recent postings (<see cref="PostingRuns"/>) as a searcher's snapshot holds them: a term's postings
/// are its main ones, then its entry in each run, in run order.
/// </summary>
internal sealed class TermRuns
{
    private readonly Tree _tree;
    private readonly long[] _starts;
    private byte[] _key = new byte[PostingRuns.PrefixSize + TermEncoding.MaxTermKeyLength(TermEncoding.MaxTermBytes)];

    private TermRuns(Tree tree, long[] starts)
    {
        _tree = tree;
        _starts = starts;
    }

    /// <summary>The runs in <paramref name="tree"/> (a field's <see cref="SearchIndex.PostingRunsTree"/>), or null when it has none.</summary>
    public static TermRuns? Open(Tree? tree)
    {
        if (tree is null || tree.Count == 0)
            return null;
        var starts = PostingRuns.Starts(tree);
        if (starts.Count > PostingRuns.MaxRuns)
            throw new CorruptionException($"A field has {starts.Count} runs of postings; a batch folds them at {PostingRuns.MaxRuns}.");
        return new TermRuns(tree, starts.ToArray());
    }

    /// <summary>A walk over the runs for terms met in key order (<see cref="TermRunsWalk"/>).</summary>
    public TermRunsWalk Walk() => new(this, _tree);

    /// <summary>How many runs wait.</summary>
    public int Count => _starts.Length;

    /// <summary>The first entry id of run <paramref name="run"/>: every id of a later run is at or above the next run's.</summary>
    public long Start(int run) => _starts[run];

    /// <summary>The encoded posting list the term whose key is <paramref name="termKey"/> has in run <paramref name="run"/>, if any.</summary>
    public bool TryGet(int run, ReadOnlySpan<byte> termKey, out ReadOnlySpan<byte> postings)
    {
        var length = PostingRuns.PrefixSize + termKey.Length;
        if (_key.Length < length)
            _key = new byte[length];
        PostingRuns.WritePrefix(_key, _starts[run]);
        termKey.CopyTo(_key.AsSpan(PostingRuns.PrefixSize));
        if (!_tree.TryGet(_key.AsSpan(0, length), out postings))
            return false;
        if (postings.IsEmpty)
            throw new CorruptionException("A run's posting list is empty.");
        return true;
    }

    /// <summary>How many entries have the term in the runs.</summary>
    public long DocumentFrequency(ReadOnlySpan<byte> termKey)
    {
        long frequency = 0;
        for (var run = 0; run < _starts.Length; run++)
        {
            if (TryGet(run, termKey, out var postings))
                frequency += PostingsDecoder.GetCount(postings);
        }
        return frequency;
    }
}
