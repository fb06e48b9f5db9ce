namespace Folio.Indexing.Queries.Iterators;

/// <summary>
/// The ids of several iterators whose ids lie in ranges one after another (every id of one below every id of the
/// next), read in turn: the union of such iterators without the merging an <see cref="OrIterator"/> does.
/// </summary>
public sealed class ConcatenatedIterator : DocIdIterator
{
    private readonly List<DocIdIterator> _parts;
    private readonly long _cost;
    private int _part;

    /// <summary>Reads <paramref name="parts"/> in order; each one's ids must all lie above the ids of those before it.</summary>
    public ConcatenatedIterator(List<DocIdIterator> parts)
    {
        _parts = parts;
        foreach (var part in parts)
            _cost += part.Cost;
    }

    /// <inheritdoc/>
    public override long Cost => _cost;

    /// <inheritdoc/>
    public override bool MoveNext()
    {
        while (_part < _parts.Count)
        {
            var part = _parts[_part];
            if (part.MoveNext())
                return Found(part.Current);
            _part++;
        }
        return Exhausted();
    }

    /// <inheritdoc/>
    public override bool Advance(long target)
    {
        if (Current >= target)
            return Current != NoMoreIds;
        while (_part < _parts.Count)
        {
            var part = _parts[_part];
            if (part.Advance(target))
                return Found(part.Current);
            _part++;
        }
        return Exhausted();
    }

    private bool Found(long id)
    {
        if (id <= Current)
            throw new Folio.Storage.CorruptionException($"Concatenated ids are out of order: {id} after {Current}.");
        Current = id;
        return true;
    }

    private bool Exhausted()
    {
        Current = NoMoreIds;
        return false;
    }
}
