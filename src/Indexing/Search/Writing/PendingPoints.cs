using Folio.Storage.Transactions;
using Folio.Storage.Trees;

namespace Folio.Indexing.Search;

/// <summary>
/// One numeric field's point changes gathered by a batch until it commits: additions in the order entries
/// are added (so in id order) and removals of stored points, both sorted once at commit. Lent by the index
/// from batch to batch (<see cref="SearchIndex.RentPoints"/>) like <see cref="PendingPostings"/>.
/// </summary>
internal sealed class PendingPoints
{
    // Past this many changes a returned log gives its arrays up rather than keep a huge batch's size.
    private const int RetainedCapacity = 1 << 20;

    // Small to start, as for PendingPostings: every numeric field of every loaded index keeps its logs.
    private const int InitialAdditions = 64;
    private const int InitialRemovals = 16;

    private Point[] _additions = new Point[InitialAdditions];
    private Point[] _removals = new Point[InitialRemovals];
    private int _added;
    private int _removed;
    // Ids of entries this batch added and took back; each id is added once, so its points go by id.
    private HashSet<long> _takenBack = [];

    /// <summary>Adds a point of entry <paramref name="id"/>, which is at least every id added before.</summary>
    public void Add(ulong value, long id) => Append(ref _additions, ref _added, new Point(value, id));

    /// <summary>Takes a point of an entry stored before this batch out of the store.</summary>
    public void Remove(ulong value, long id) => Append(ref _removals, ref _removed, new Point(value, id));

    /// <summary>Takes back every addition of <paramref name="id"/>, an entry this batch added and now deletes or replaces.</summary>
    public void RemoveAdditionsOf(long id) => _takenBack.Add(id);

    /// <summary>
    /// Applies the changes to a field's main points <paramref name="main"/> and its runs in the tree named
    /// <paramref name="runsTree"/> (<see cref="PointRuns"/>) in point order; the batch's entries start at <paramref name="firstIdOfBatch"/>.
    /// </summary>
    public void Apply(WriteTransaction transaction, Tree main, string runsTree, long firstIdOfBatch, StoreBuffers buffers)
    {
        var added = _added;
        if (_takenBack.Count > 0)
        {
            added = 0;
            for (var i = 0; i < _added; i++)
            {
                if (!_takenBack.Contains(_additions[i].Id))
                    _additions[added++] = _additions[i];
            }
        }
        Array.Sort(_additions, 0, added);
        Array.Sort(_removals, 0, _removed);
        PointRuns.Apply(transaction, main, runsTree, firstIdOfBatch, _additions.AsSpan(0, added), _removals.AsSpan(0, _removed), buffers);
    }

    /// <summary>Forgets everything gathered, for the next batch; a log that grew very large starts small again.</summary>
    public void Release()
    {
        _added = 0;
        _removed = 0;
        if (_takenBack.Count > RetainedCapacity)
            _takenBack = [];
        else
            _takenBack.Clear();
        if (_additions.Length > RetainedCapacity)
            _additions = new Point[InitialAdditions];
        if (_removals.Length > RetainedCapacity)
            _removals = new Point[InitialRemovals];
    }

    private static void Append(ref Point[] points, ref int count, Point point)
    {
        if (count == points.Length)
            Array.Resize(ref points, count * 2);
        points[count++] = point;
    }
}
