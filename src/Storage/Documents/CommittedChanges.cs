namespace Folio.Storage.Documents;

/// <summary>
/// What one merged commit of a <see cref="DocumentStore"/> changed: the etags it took (after
/// <see cref="AfterEtag"/>, up to <see cref="LastEtag"/>), the collections it touched, and its changes.
/// Commits are linked in commit order: <see cref="Next"/> completes with the following one, so a consumer
/// waits for work asynchronously, holding nothing but the last commit it saw.
/// </summary>
/// <remarks>
/// A commit lists at most <see cref="MaxListed"/> changes (a bulk insert's commit holds thousands, and a
/// notification must stay cheap to make on the write path); <see cref="ListsAll"/> says whether the list is
/// whole. The counts and <see cref="Collections"/> always are. A consumer that needs every change of a commit
/// that lists only some reads them with <see cref="DocumentReader.ChangesAfter"/> from <see cref="AfterEtag"/>.
/// Holding a commit keeps every later one reachable: a consumer that falls behind lets go of it and resumes
/// from the documents by etag.
/// </remarks>
public sealed class CommittedChanges
{
    /// <summary>The most changes a commit lists.</summary>
    public const int MaxListed = 1024;

    private readonly TaskCompletionSource<CommittedChanges> _next = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string[] _collections;

    internal CommittedChanges(long afterEtag, long lastEtag, int count, int deleteCount, DocumentChange[] listed, string[] collections)
    {
        AfterEtag = afterEtag;
        LastEtag = lastEtag;
        Count = count;
        DeleteCount = deleteCount;
        Changes = listed;
        _collections = collections;
    }

    /// <summary>The store's last etag before this commit; its changes took the etags after it.</summary>
    public long AfterEtag { get; }

    /// <summary>The store's last etag once this commit was durable.</summary>
    public long LastEtag { get; }

    /// <summary>How many changes the commit made (a document moved to another collection counts twice: it left one and entered the other).</summary>
    public int Count { get; }

    /// <summary>How many of the changes were deletes (or moves out of a collection).</summary>
    public int DeleteCount { get; }

    /// <summary>The commit's changes in etag order: all of them when <see cref="ListsAll"/>, else the first <see cref="MaxListed"/>.</summary>
    public IReadOnlyList<DocumentChange> Changes { get; }

    /// <summary>Whether <see cref="Changes"/> holds every change of the commit.</summary>
    public bool ListsAll => Changes.Count == Count;

    /// <summary>Every collection the commit stored a document in or removed one from, each once, with the casing it was written with.</summary>
    public IReadOnlyList<string> Collections => _collections;

    /// <summary>Completes with the next commit once it is durable.</summary>
    public Task<CommittedChanges> Next => _next.Task;

    /// <summary>Whether the commit changed a document of one of <paramref name="collections"/> (names compare case-insensitively).</summary>
    public bool Touches(IReadOnlyList<string> collections)
    {
        foreach (var touched in _collections)
        {
            for (var i = 0; i < collections.Count; i++)
            {
                if (string.Equals(touched, collections[i], StringComparison.OrdinalIgnoreCase))
                    return true;
            }
        }
        return false;
    }

    /// <summary>The state of a store that has just opened: nothing committed since, up to <paramref name="lastEtag"/>.</summary>
    internal static CommittedChanges Opened(long lastEtag) => new(lastEtag, lastEtag, 0, 0, [], []);

    internal void Link(CommittedChanges next) => _next.TrySetResult(next);
}
