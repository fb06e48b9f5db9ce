using System.Text.Json;
using Folio.Server.Changes;
using Folio.Server.Databases;
using Folio.Storage.Documents;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The delivery loop: read matching changes after the acknowledged etag, send them, wait for the acknowledgement.</summary>
internal sealed partial class SubscriptionSession
{
    private readonly List<BatchItem> _batch = [];

    private async Task DeliverAsync(Database database, Subscription subscription, SessionHeader request, CancellationToken stop)
    {
        long position = subscription.AcknowledgedEtag;
        string[] collections = [subscription.Matcher.Collection];
        while (true)
        {
            _batch.Clear();
            long batchBytes = 0;
            long deadline = Environment.TickCount64 + (long)request.MaxBatchWait.TotalMilliseconds;
            long upTo = position;
            bool more;
            while (true)
            {
                (upTo, more) = Read(database, subscription, collections, upTo, request.BatchSize, ref batchBytes) ?? throw new OperationCanceledException(stop);
                long remaining = deadline - Environment.TickCount64;
                if (more || _batch.Count >= request.BatchSize || batchBytes >= _options.MaxBatchBytes || remaining <= 0 || _batch.Count == 0)
                    break;
                if (!await HttpChangesFeed.WaitForWriteAsync(database, upTo, TimeSpan.FromMilliseconds(remaining), stop))
                    break;
            }

            stop.ThrowIfCancellationRequested();
            if (_batch.Count == 0)
            {
                if (upTo > position)
                {
                    // Nothing matched: the position moves without a batch, and is saved at the next acknowledgement.
                    subscription.Acknowledge(upTo);
                    position = upTo;
                }

                if (more)
                    continue;
                if (!await HttpChangesFeed.WaitForWriteAsync(database, position, _options.Heartbeat, stop))
                {
                    stop.ThrowIfCancellationRequested();
                    await SendAsync(static (w, _) => w.WriteRawValue("{\"Type\":\"Heartbeat\"}"u8), 0, stop);
                }

                continue;
            }

            await SendAsync(static (w, s) => WriteBatch(w, s.Items, s.UpTo, s.DatabaseId), (Items: _batch, UpTo: upTo, DatabaseId: database.Store.DatabaseId), stop);
            await ReadAcknowledgementAsync(upTo, stop);
            database.Subscriptions.Acknowledge(subscription, upTo);
            position = upTo;
        }
    }

    /// <summary>Adds matching changes after <paramref name="after"/> to the batch; null when the database is closing.</summary>
    private (long UpTo, bool More)? Read(Database database, Subscription subscription, string[] collections, long after, int batchSize, ref long batchBytes)
    {
        if (!database.TryEnter())
            return null;
        try
        {
            using DocumentReader reader = database.Store.OpenReader();
            DocumentChangeReader changes = reader.ChangesAfter(after, collections, maxChanges: batchSize * 4, maxBytes: _options.MaxBatchBytes);
            while (changes.MoveNext())
            {
                if (changes.Kind == DocumentChangeKind.Delete)
                {
                    Tombstone tombstone = changes.Tombstone;
                    _batch.Add(new BatchItem(changes.Etag, tombstone.Id, tombstone.Collection, null));
                }
                else
                {
                    Document document = changes.Document;
                    string id = document.IdString;
                    var json = new Utf8JsonReader(document.Json);
                    using JsonDocument parsed = JsonDocument.ParseValue(ref json);
                    if (subscription.Matcher.Matches(id, parsed.RootElement))
                    {
                        _batch.Add(new BatchItem(changes.Etag, id, document.CollectionString, document.Json.ToArray()));
                        batchBytes += document.Json.Length;
                    }
                }

                if (_batch.Count >= batchSize || batchBytes >= _options.MaxBatchBytes)
                    return (changes.Etag, changes.Etag < reader.LastEtag);
            }

            return (changes.UpToEtag, changes.ReachedBound);
        }
        finally
        {
            database.Exit();
        }
    }

    private async Task ReadAcknowledgementAsync(long upTo, CancellationToken stop)
    {
        using JsonDocument? ack = await ReadLineAsync(stop) ?? throw new ConnectionResetException("The worker closed the connection before acknowledging.");
        JsonElement root = ack.RootElement;
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("Type", out JsonElement type) || type.ValueEquals("Ack"u8) is false
            || !root.TryGetProperty("LastEtag", out JsonElement etag) || etag.ValueKind != JsonValueKind.Number || etag.GetInt64() != upTo)
            throw new InvalidDataException($"Expected the acknowledgement {{\"Type\":\"Ack\",\"LastEtag\":{upTo}}}; got {root.GetRawText()}.");
    }

    private static void WriteBatch(Utf8JsonWriter writer, List<BatchItem> items, long upTo, string databaseId)
    {
        Span<byte> vector = stackalloc byte[ChangeVector.MaxLength];
        byte[] id = System.Text.Encoding.ASCII.GetBytes(databaseId);
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "Batch"u8);
        writer.WriteNumber("LastEtag"u8, upTo);
        writer.WriteStartArray("Items"u8);
        foreach (BatchItem item in items)
        {
            writer.WriteStartObject();
            writer.WriteString("Id"u8, item.Id);
            writer.WriteNumber("Etag"u8, item.Etag);
            writer.WriteString("Collection"u8, item.Collection);
            writer.WriteString("ChangeVector"u8, vector[..ChangeVector.Format(item.Etag, id, vector)]);
            writer.WriteString("ChangeType"u8, item.Json is null ? "Delete"u8 : "Put"u8);
            if (item.Json is not null)
            {
                writer.WritePropertyName("Document"u8);
                writer.WriteRawValue(item.Json, skipInputValidation: true);
            }

            writer.WriteEndObject();
        }

        writer.WriteEndArray();
        writer.WriteEndObject();
    }

    /// <summary>One document of a batch; <paramref name="Json"/> is null for a delete.</summary>
    private readonly record struct BatchItem(long Etag, string Id, string Collection, byte[]? Json);
}
