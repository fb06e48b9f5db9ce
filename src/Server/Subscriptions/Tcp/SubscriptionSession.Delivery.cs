using System.Text.Json;
using Folio.Server.Changes;
using Folio.Server.Databases;
using Microsoft.AspNetCore.Connections;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The delivery loop: read matching changes after the acknowledged etag, send them, wait for the acknowledgement.</summary>
internal sealed partial class SubscriptionSession
{
    private async Task DeliverAsync(Database database, Subscription subscription, SessionHeader request, CancellationToken stop)
    {
        long position = subscription.AcknowledgedEtag;
        ChangeFilter filter = ChangeFilter.ForQuery(subscription.Matcher);
        var batch = new List<ChangeRecord>();
        var ahead = new List<ChangeRecord>();
        (long UpTo, bool More) filled = await FillAsync(database, filter, position, request, batch, stop);
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

                if (!filled.More && !await database.WaitForWriteAsync(position, _options.Heartbeat, stop))
                {
                    stop.ThrowIfCancellationRequested();
                    await SendAsync(static (w, _) => w.WriteRawValue("{\"Type\":\"Heartbeat\"}"u8), 0, stop);
                }

                filled = await FillAsync(database, filter, position, request, batch, stop);
                continue;
            }

            await SendAsync(static (w, s) => WriteBatch(w, s.Items, s.UpTo, s.Database), (Items: batch, UpTo: filled.UpTo, Database: database), stop);

            // While the worker processes this batch, the next one is read, when more are known to wait.
            long sent = filled.UpTo;
            ahead.Clear();
            Task<(long UpTo, bool More)?>? next = filled.More
                ? Task.Run(() => ChangeReader.Read(database, sent, filter, request.BatchSize, includeDocuments: true, ahead, _options.MaxBatchBytes))
                : null;
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
                filled = await FillAsync(database, filter, position, request, batch, stop);
            }
        }
    }

    /// <summary>Reads a batch after <paramref name="after"/>, waiting up to the header's MaxBatchWait for more writes to fill one that is not full.</summary>
    private async Task<(long UpTo, bool More)> FillAsync(Database database, ChangeFilter filter, long after, SessionHeader request, List<ChangeRecord> into, CancellationToken stop)
    {
        long deadline = Environment.TickCount64 + (long)request.MaxBatchWait.TotalMilliseconds;
        into.Clear();
        long upTo = after;
        while (true)
        {
            (long UpTo, bool More) read = ChangeReader.Read(database, upTo, filter, request.BatchSize - into.Count, includeDocuments: true, into, _options.MaxBatchBytes)
                ?? throw new OperationCanceledException(stop);
            upTo = read.UpTo;
            long remaining = deadline - Environment.TickCount64;
            if (read.More || into.Count >= request.BatchSize || into.Count == 0 || remaining <= 0)
                return read;
            if (!await database.WaitForWriteAsync(upTo, TimeSpan.FromMilliseconds(remaining), stop))
                return read;
        }
    }

    private async Task ReadAcknowledgementAsync(long upTo, CancellationToken stop)
    {
        using JsonDocument? ack = await ReadLineAsync(_connection.Transport.Input, stop) ?? throw new ConnectionResetException("The worker closed the connection before acknowledging.");
        CheckAcknowledgement(ack.RootElement, upTo);
    }

    /// <summary>Checks a worker's line is the acknowledgement of the batch up to <paramref name="upTo"/> (static so tests/Fuzz can drive it).</summary>
    /// <exception cref="InvalidDataException">It is anything else.</exception>
    internal static void CheckAcknowledgement(JsonElement root, long upTo)
    {
        if (root.ValueKind != JsonValueKind.Object
            || !root.TryGetProperty("Type", out JsonElement type) || type.ValueKind != JsonValueKind.String || !type.ValueEquals("Ack"u8)
            || !root.TryGetProperty("LastEtag", out JsonElement etag) || etag.ValueKind != JsonValueKind.Number || !etag.TryGetInt64(out long acknowledged) || acknowledged != upTo)
            throw new InvalidDataException($"Expected the acknowledgement {{\"Type\":\"Ack\",\"LastEtag\":{upTo}}}; got {root.GetRawText()}.");
    }

    private static void WriteBatch(Utf8JsonWriter writer, List<ChangeRecord> items, long upTo, Database database)
    {
        writer.WriteStartObject();
        writer.WriteString("Type"u8, "Batch"u8);
        writer.WriteNumber("LastEtag"u8, upTo);
        writer.WriteStartArray("Items"u8);
        foreach (ChangeRecord item in items)
            ChangeJson.Write(writer, item, database.DatabaseIdBytes);
        writer.WriteEndArray();
        writer.WriteEndObject();
    }
}
