using System.Security.Cryptography;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using Folio.Storage.Documents;

namespace Folio.Indexing.MapReduce;

/// <summary>
/// Writes a map/reduce index's result rows as documents of its output collection, one per group under an
/// id derived from the group key (<see cref="DocumentId"/>). The reduce store is the truth and commits
/// first; these writes follow it, and what a crash kept them from writing is written again from the
/// store's rows at the next start. A write is a put of the group's current row or a delete, so writing a
/// group twice gives what writing it once does: nothing is counted twice and nothing is lost.
/// </summary>
internal sealed class ReduceOutput(DocumentStore store, string collection)
{
    // Commands per transaction: a batch touching many groups becomes several transactions the merger commits together.
    private const int CommandsPerWrite = 1_024;
    private static readonly JsonWriterOptions MetadataJson = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly byte[] _metadata = Metadata(collection);

    /// <summary>The store the documents go to.</summary>
    public DocumentStore Store => store;

    /// <summary>The collection the documents go to.</summary>
    public string Collection => collection;

    /// <summary>
    /// The id of a group's document: <c>{collection}/{32 hex digits}</c>, the first 128 bits of the SHA-256 of
    /// the group key (<see cref="MapEntry.GroupKey"/>, its canonical JSON). The same group always gets the same
    /// id, across batches, restarts and rebuilds.
    /// </summary>
    public static string DocumentId(string collection, string groupKey)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes(groupKey), hash);
        return $"{collection}/{Convert.ToHexStringLower(hash[..16])}";
    }

    /// <summary>Puts the rows of groups that changed and deletes the documents of groups that went; returns once durable.</summary>
    /// <remarks>
    /// Runs in the index runner's turn, on a thread of <see cref="Folio.Storage.Scheduling.WorkScheduler.Background"/>, which waits
    /// for its commits anyway; the write's own commit runs on <see cref="Folio.Storage.Scheduling.WorkScheduler.Commits"/>, so
    /// waiting for it can never hold up the thread it needs.
    /// </remarks>
    public void Write(IReadOnlyList<(string Key, byte[] Row)> rows, IReadOnlyList<string> removed)
    {
        var commands = new List<DocumentCommand>(rows.Count + removed.Count);
        foreach (var (key, row) in rows)
            commands.Add(new DocumentCommand(DocumentCommandType.Put, DocumentId(collection, key), PreparedDocument.Parse(WithMetadata(row)), null));
        foreach (var key in removed)
            commands.Add(new DocumentCommand(DocumentCommandType.Delete, DocumentId(collection, key), null, null));
        WriteAsync(store, commands).GetAwaiter().GetResult();
    }

    /// <summary>Deletes every document of <paramref name="collection"/> (what an index leaves behind when it goes, or finds when it starts).</summary>
    public static Task PurgeAsync(DocumentStore store, string collection)
    {
        var commands = new List<DocumentCommand>();
        using (var reader = store.OpenReader())
        {
            var cursor = reader.ByCollection(collection);
            while (cursor.MoveNext())
                commands.Add(new DocumentCommand(DocumentCommandType.Delete, cursor.Current.IdString, null, null));
        }
        return WriteAsync(store, commands);
    }

    /// <summary>Sends <paramref name="commands"/> in transactions of <see cref="CommandsPerWrite"/>, all at once, and completes when every one is durable.</summary>
    private static Task WriteAsync(DocumentStore store, List<DocumentCommand> commands)
    {
        if (commands.Count <= CommandsPerWrite)
            return commands.Count == 0 ? Task.CompletedTask : store.BatchAsync(commands);
        var writes = new Task[(commands.Count + CommandsPerWrite - 1) / CommandsPerWrite];
        for (var w = 0; w < writes.Length; w++)
            writes[w] = store.BatchAsync(commands.GetRange(w * CommandsPerWrite, Math.Min(CommandsPerWrite, commands.Count - (w * CommandsPerWrite))));
        return Task.WhenAll(writes);
    }

    /// <summary>The row with the output metadata as its last property: <c>{…,"@metadata":{"@collection":…}}</c>.</summary>
    private byte[] WithMetadata(byte[] row)
    {
        var document = new byte[row.Length - 1 + _metadata.Length];
        row.AsSpan(0, row.Length - 1).CopyTo(document);
        _metadata.CopyTo(document, row.Length - 1);
        return document;
    }

    private static byte[] Metadata(string collection)
    {
        var buffer = new System.Buffers.ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, MetadataJson))
            writer.WriteStringValue(collection);
        return [.. ",\"@metadata\":{\"@collection\":"u8, .. buffer.WrittenSpan, .. "}}"u8];
    }
}
