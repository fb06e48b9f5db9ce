using Folio.Server.Databases;
using Folio.Storage.Documents;

namespace Folio.Server.Changes;

/// <summary>
/// Reads a feed's next changes from the documents by etag, never from memory: a consumer that falls behind
/// costs the server nothing but its position, and resumes from any etag (tombstones are kept).
/// </summary>
internal static class ChangeReader
{
    /// <summary>Changes looked at per read, matching or not, so a narrow filter over a long history returns between reads.</summary>
    private const int ScanLimit = 16_384;

    /// <summary>Document bytes read per read when documents are included or read for a query, unless the caller bounds them.</summary>
    public const long DefaultScanBytes = 8L * 1024 * 1024;

    /// <summary>
    /// Adds to <paramref name="into"/> up to <paramref name="max"/> changes after <paramref name="afterEtag"/> that
    /// <paramref name="filter"/> matches, under a lease of <paramref name="database"/>, reading at most about
    /// <paramref name="maxBytes"/> of documents.
    /// </summary>
    /// <returns>
    /// The etag through which the changes were read (the next read starts after it), and whether more changes
    /// were left unread; null when the database is closing.
    /// </returns>
    public static (long UpToEtag, bool More)? Read(Database database, long afterEtag, ChangeFilter filter, int max, bool includeDocuments, List<ChangeRecord> into, long maxBytes = DefaultScanBytes)
    {
        if (!database.TryEnter())
            return null;
        try
        {
            using DocumentReader reader = database.Store.OpenReader();
            bool readsDocuments = includeDocuments || filter.ReadsDocuments;
            DocumentChangeReader changes = reader.ChangesAfter(afterEtag, filter.CollectionsToRead, ScanLimit, readsDocuments ? maxBytes : long.MaxValue);
            var added = 0;
            while (changes.MoveNext())
            {
                ChangeRecord change;
                if (changes.Kind == DocumentChangeKind.Put)
                {
                    Document document = changes.Document;
                    string id = document.IdString;
                    string collection = document.CollectionString;
                    if (!filter.Matches(id, collection) || !filter.MatchesDocument(id, document.Json))
                        continue;
                    change = new ChangeRecord(changes.Etag, id, collection, DocumentChangeKind.Put, includeDocuments ? document.Json.ToArray() : null);
                }
                else
                {
                    Tombstone tombstone = changes.Tombstone;
                    if (!filter.Matches(tombstone.Id, tombstone.Collection))
                        continue;
                    change = new ChangeRecord(changes.Etag, tombstone.Id, tombstone.Collection, DocumentChangeKind.Delete, null);
                }

                into.Add(change);
                if (++added == max)
                    return (changes.Etag, changes.Etag < reader.LastEtag);
            }

            return (changes.UpToEtag, changes.ReachedBound);
        }
        finally
        {
            database.Exit();
        }
    }
}
