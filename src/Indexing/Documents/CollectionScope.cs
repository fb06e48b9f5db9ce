using Folio.Storage.Documents;

namespace Folio.Indexing.Documents;

/// <summary>
/// The documents a <c>from</c> clause or an index's <c>Collections</c> name: one collection, or every document for
/// <c>@all_docs</c>, the name the seeds' system's RQL gives the whole database. The storage engine keeps documents by
/// collection and by etag; reading "every collection" is the etag order itself, so the name costs nothing to serve.
/// </summary>
public static class CollectionScope
{
    /// <summary>The collection name that stands for every document.</summary>
    public const string AllDocuments = "@all_docs";

    /// <summary>Whether <paramref name="collection"/> names every document.</summary>
    public static bool IsAll(string collection) => string.Equals(collection, AllDocuments, StringComparison.OrdinalIgnoreCase);

    /// <summary>Whether any of <paramref name="collections"/> names every document.</summary>
    public static bool IncludesAll(IReadOnlyList<string> collections)
    {
        for (var i = 0; i < collections.Count; i++)
        {
            if (IsAll(collections[i]))
                return true;
        }
        return false;
    }

    /// <summary>The collections to filter changes by, or null for every change when one of them is <see cref="AllDocuments"/>.</summary>
    public static IReadOnlyList<string>? ChangeFilter(IReadOnlyList<string> collections) => IncludesAll(collections) ? null : collections;

    /// <summary>The documents of <paramref name="collection"/> written after <paramref name="afterEtag"/>, in etag order.</summary>
    public static DocumentCursor Cursor(DocumentReader reader, string collection, long afterEtag = 0) =>
        IsAll(collection) ? reader.ByEtag(afterEtag) : reader.ByCollection(collection, afterEtag);

    /// <summary>How many documents <paramref name="collection"/> holds.</summary>
    public static long Count(DocumentReader reader, string collection) =>
        IsAll(collection) ? reader.CountOfDocuments : reader.CountInCollection(collection);

    /// <summary>Whether a document of <paramref name="documentCollection"/> is in <paramref name="collection"/>.</summary>
    public static bool Contains(string collection, string documentCollection) =>
        IsAll(collection) || string.Equals(documentCollection, collection, StringComparison.OrdinalIgnoreCase);
}
