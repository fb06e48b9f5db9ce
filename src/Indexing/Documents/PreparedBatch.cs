using Folio.Indexing.Search;

namespace Folio.Indexing.Documents;

/// <summary>The next stretch of a collection's changes, read and converted, ready to index: everything up to <see cref="UpToEtag"/>.</summary>
internal sealed record PreparedBatch(List<IndexEntry> Entries, List<string> Deletes, List<IndexError> Errors, long UpToEtag, long Bytes);
