using Folio.Indexing.Runner;
using Folio.Storage.Documents;

namespace Folio.Indexing.Tests.Runner;

/// <summary>A <see cref="RecordingProcessor"/>'s batch: the ids it was given, and the etag it committed.</summary>
internal sealed class RecordingBatch(RecordingProcessor processor, int ordinal) : IIndexBatch
{
    private readonly List<IndexError> _errors = [];

    /// <summary>Which batch of the processor this is (1 for the first made).</summary>
    public int Ordinal { get; } = ordinal;

    /// <summary>The changes added, in order: lower-cased ids, deletes prefixed with "-".</summary>
    public List<string> Changes { get; } = [];

    /// <summary>The etags of the changes added, in order.</summary>
    public List<long> Etags { get; } = [];

    /// <summary>The thread the changes were added on.</summary>
    public int PreparedOn { get; private set; }

    /// <summary>The etag the batch committed.</summary>
    public long UpToEtag { get; private set; }

    public int Documents { get; private set; }

    public int Deletes { get; private set; }

    public IReadOnlyList<IndexError> Errors => _errors;

    public void AddDocument(Document document)
    {
        var id = document.IdString.ToLowerInvariant();
        Added(document.Etag);
        if (processor.Rejected.Contains(id))
        {
            _errors.Add(new IndexError(DateTime.UtcNow, document.IdString, "rejected by the test"));
            Changes.Add("-" + id);
            Deletes++;
            return;
        }
        Changes.Add(id);
        Documents++;
    }

    public void AddDelete(Tombstone tombstone)
    {
        Added(tombstone.Etag);
        Changes.Add("-" + tombstone.Id);
        Deletes++;
    }

    public void Commit(long upToEtag) => Commit(upToEtag, moreFollows: false);

    public bool Commit(long upToEtag, bool moreFollows)
    {
        UpToEtag = upToEtag;
        return processor.Commit(this, upToEtag, moreFollows);
    }

    private void Added(long etag)
    {
        Etags.Add(etag);
        PreparedOn = Environment.CurrentManagedThreadId;
        if (Ordinal > 1)
            processor.LaterBatchFilled.Set();
    }
}
