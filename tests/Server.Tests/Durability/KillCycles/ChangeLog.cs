namespace Folio.Server.Tests.Durability.KillCycles;

/// <summary>
/// What a consumer (the subscription worker, the changes feed reader) has received: the newest change per document.
/// Both report only a document's latest change, so the check is that each document's newest received change is its
/// state now: its change vector if it is stored, a delete (or nothing) if it is not.
/// </summary>
internal sealed class ChangeLog
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, (long Etag, bool Deleted, string? ChangeVector)> _latest = new(StringComparer.OrdinalIgnoreCase);
    private long _lastEtag;

    /// <summary>The highest etag received.</summary>
    public long LastEtag
    {
        get
        {
            lock (_gate)
                return _lastEtag;
        }
    }

    public void Record(long etag, string id, bool deleted, string? changeVector)
    {
        lock (_gate)
        {
            if (!_latest.TryGetValue(id, out var latest) || latest.Etag < etag)
                _latest[id] = (etag, deleted, changeVector);
            _lastEtag = Math.Max(_lastEtag, etag);
        }
    }

    /// <summary>Each document whose newest received change is not its state in <paramref name="stored"/>.</summary>
    public List<string> Mismatches(IReadOnlyDictionary<string, StoredItem> stored, IEnumerable<string> ids)
    {
        var mismatches = new List<string>();
        lock (_gate)
        {
            foreach (string id in ids)
            {
                bool received = _latest.TryGetValue(id, out var latest);
                if (stored.TryGetValue(id, out StoredItem? item))
                {
                    if (!received || latest.Deleted || latest.ChangeVector != item.ChangeVector)
                        mismatches.Add($"{id} is stored at {item.ChangeVector}, newest received: {(received ? (latest.Deleted ? "a delete" : latest.ChangeVector) : "nothing")}");
                }
                else if (received && !latest.Deleted)
                {
                    mismatches.Add($"{id} is deleted, newest received: a put at {latest.ChangeVector}");
                }
            }
        }

        return mismatches;
    }
}
