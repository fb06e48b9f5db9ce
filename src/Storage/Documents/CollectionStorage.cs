namespace Folio.Storage.Documents;

/// <summary>What one collection's document bodies take.</summary>
/// <param name="Name">The collection's name.</param>
/// <param name="Documents">Its documents.</param>
/// <param name="RawBytes">Their JSON as read.</param>
/// <param name="StoredBytes">Their bodies as stored (for compressed ones, the frames).</param>
/// <param name="CompressedDocuments">Documents whose body is stored compressed.</param>
/// <param name="DictionaryVersion">The dictionary version new bodies are compressed with (0: none yet).</param>
public sealed record CollectionStorage(string Name, long Documents, long RawBytes, long StoredBytes, long CompressedDocuments, int DictionaryVersion);
