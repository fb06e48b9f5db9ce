using System.Text.Json;
using Folio.Server.Changes;
using Folio.Server.Databases;
using Folio.Storage.Documents;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The delivery loop: read matching changes after the acknowledged etag, send them, wait for the acknowledgement.</summary>
internal sealed partial class SubscriptionSession
{
    private async Task DeliverAsync(Database database, Subscription subscription, SessionHeader request, CancellationToken stop)
    {
        long position = subscription.AcknowledgedEtag;
        string[] collections = [subscription.Matcher.Collection];
        var batch = new List<BatchItem>();
        var ahead = new List<BatchItem>();
        (long UpTo, bool More) filled = await FillAsync(database, subscription, collections, position, request, batch, stop);
        while (true)
        {
            stop.ThrowIfCancellationRequested();
            if (batch.Count == 0)
            {
                if (filled.UpTo > position)
                {
                    // Nothing matched: the position moves without a batch, and is saved at the next acknowledgement.
                    subscription.Acknowledge(filled.UpTo);
                    position = filled.UpTo;
                }

                if (!filled.More && !await HttpChangesFeed.WaitForWriteAsync(database, position, _options.Heartbeat, stop))
                {
                    stop.ThrowIfCancellationRequested();
                    await SendAsync(static (w, _) => w.WriteRawValue("{\"Type\":\"Heartbeat\"}"u8), 0, stop);
                }

                filled = await FillAsync(database, subscription, collections, position, request, batch, stop);
                continue;
            }

            await SendAsync(static (w, s) => WriteBatch(w, s.Items, s.UpTo, s.DatabaseId), (Items: batch, UpTo: filled.UpTo, DatabaseId: database.Store.DatabaseId), stop);

            // While the worker processes this batch, the next one is read, when more are known to wait.
            long sent = filled.UpTo;
            Task<(long UpTo, bool More)?>? next = filled.More ? Task.Run(() => Read(database, subscription, collections, sent, request.BatchSize, ahead)) : null;
            await ReadAcknowledgementAsync(sent, stop);
            database.Subscriptions.Acknowledge(subscription, sent);
            position = sent;
            if (next is not null)
            {
                filled = await next ?? throw new OperationCanceledException(stop);
                (batch, ahead) = (ahead, batch);
            }
            else
            {
                filled = await FillAsync(database, subscription, collections, position, request, batch, stop);
            }
        }
    }

    /// <summary>Reads a batch after <paramref name="after"/>, waiting up to the header's MaxBatchWait for more writes to fill one that is not full.</summary>
    private async Task<(long UpTo, bool More)> FillAsync(Database database, Subscription subscription, string[] collections, long after, SessionHeader request, List<BatchItem> into, CancellationToken stop)
    {
        long deadline = Environment.TickCount64 + (long)request.MaxBatchWait.TotalMilliseconds;
        into.Clear();
        long upTo = after;
        while (true)
        {
            (long UpTo, bool More) read = Read(database, subscription, collections, upTo, request.BatchSize - into.Count, into, clear: false) ?? throw new OperationCanceledException(stop);
            upTo = read.UpTo;
            long remaining = deadline - Environment.TickCount64;
            if (read.More || into.Count >= request.BatchSize || into.Count == 0 || remaining <= 0)
                return read;
            if (!await HttpChangesFeed.WaitForWriteAsync(database, upTo, TimeSpan.FromMilliseconds(remaining), stop))
                return read;
        }
    }

    /// <summary>
    /// Adds up to <paramref name="max"/> matching changes after <paramref name="after"/> to <paramref name="into"/> (emptied first
    /// unless <paramref name="clear"/> is false), stopping at the batch byte limit; null when the database is closing.
    /// </summary>
    private (long UpTo, bool More)? Read(Database database, Subscription subscription, string[] collections, long after, int max, List<BatchItem> into, bool clear = true)
    {
        if (clear)
            into.Clear();
        if (!database.TryEnter())
            return null;
        try
        {
            long bytes = 0;
            foreach (BatchItem item in into)
                bytes += item.Json?.Length ?? 0;
            int added = 0;
            using DocumentReader reader = database.Store.OpenReader();
            DocumentChangeReader changes = reader.ChangesAfter(after, collections, maxChanges: Math.Max(max, 1) * 4, maxBytes: _options.MaxBatchBytes);
            while (changes.MoveNext())
            {
                if (changes.Kind == DocumentChangeKind.Delete)
                {
                    Tombstone tombstone = changes.Tombstone;
                    into.Add(new BatchItem(changes.Etag, tombstone.Id, tombstone.Collection, null));
                }
                else
                {
                    Document document = changes.Document;
                    string id = document.IdString;
                    if (!Matches(subscription, id, document.Json))
                        continue;
                    into.Add(new BatchItem(changes.Etag, id, document.CollectionString, document.Json.ToArray()));
                    bytes += document.Json.Length;
                }

                if (++added >= max || bytes >= _options.MaxBatchBytes)
                    return (changes.Etag, changes.Etag < reader.LastEtag);
            }

            return (changes.UpToEtag, changes.ReachedBound);
        }
        finally
        {
            database.Exit();
        }
    }

    /// <summary>Whether the subscription's query matches a document; a query without conditions reads no JSON.</summary>
    private static bool Matches(Subscription subscription, string id, ReadOnlySpan<byte> json)
    {
        if (subscription.Matcher.MatchesEverything)
            return true;
        var reader = new Utf8JsonReader(json);
        using JsonDocument parsed = JsonDocument.ParseValue(ref reader);
        return subscription.Matcher.Matches(id, parsed.RootElement);
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
