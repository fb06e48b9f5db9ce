namespace Folio.Indexing.Search;

/// <summary>One term's pending changes in a batch: ids that gain it (in id order) and ids that lose it.</summary>
internal sealed class TermChanges
{
    public List<long> Additions { get; } = [];

    public List<int> Frequencies { get; } = [];

    public List<long> Removals { get; } = [];

    public void Add(long id, int frequency)
    {
        Additions.Add(id);
        Frequencies.Add(frequency);
    }

    /// <summary>Takes an id back out: from the pending additions when this batch added it, else from the stored postings.</summary>
    public void Remove(long id, long firstIdOfBatch)
    {
        if (id >= firstIdOfBatch)
        {
            var index = Additions.BinarySearch(id);
            if (index >= 0)
            {
                Additions.RemoveAt(index);
                Frequencies.RemoveAt(index);
            }
            return;
        }
        Removals.Add(id);
    }
}
