namespace Folio.Indexing.Search;

/// <summary>The relevance score as a sort key.</summary>
internal sealed class ScoreSortValues : SortKeyValues
{
    private float[] _scores = [];

    public override void Grow(int slots) => Array.Resize(ref _scores, slots);

    public override void Load(int slot, long entryId, float score) => _scores[slot] = score;

    public override int Compare(int a, int b) => _scores[a].CompareTo(_scores[b]);
}
