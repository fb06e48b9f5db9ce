using System.Text.Json;
using System.Threading.Channels;
using Folio.Indexing.Definitions;
using Folio.Server.Changes;
using Folio.Server.Databases;
using Folio.Storage.Documents;

namespace Folio.Server.Subscriptions.Tcp;

/// <summary>The delivery loop of the seeds' protocol: batches of <c>Data</c>, <c>Includes</c>, <c>EndOfBatch</c>; acknowledgement; <c>Confirm</c>.</summary>
internal sealed partial class SeedsSubscriptionSession
{
    private async Task DeliverAsync(Database database, Subscription subscription, SeedsWorkerOptions options, CancellationToken stop)
    {
        long position = subscription.AcknowledgedEtag;
        ChangeFilter filter = ChangeFilter.ForQuery(subscription.Matcher);
        IReadOnlyList<FieldPath> includes = subscription.Matcher.Includes;
        var batch = new List<ChangeRecord>();
        try
        {
            while (true)
            {
                stop.ThrowIfCancellationRequested();
                batch.Clear();
                (long UpTo, bool More) read = ChangeReader.Read(database, position, filter, options.MaxDocsPerBatch, includeDocuments: true, batch, _options.MaxBatchBytes)
                    ?? throw new OperationCanceledException(stop);
                batch.RemoveAll(static change => change.Kind != DocumentChangeKind.Put);
                if (batch.Count == 0)
                {
                    if (read.UpTo > position)
                    {
                        // Nothing matched: the position moves without a batch, and is saved at the next acknowledgement.
                        subscription.Acknowledge(read.UpTo);
                        position = read.UpTo;
                    }

                    if (!read.More && !await database.WaitForWriteAsync(position, _options.Heartbeat, stop))
                        await SendHeartbeatAsync(stop);
                    continue;
                }

                WriteBatch(database, batch, includes);
                await FlushAsync(stop);
                await _acknowledgements.Reader.ReadAsync(stop);
                database.Subscriptions.Acknowledge(subscription, read.UpTo);
                position = read.UpTo;
                await SendAsync(static (w, _) => w.WriteRawValue("{\"Type\":\"Confirm\"}"u8), 0, stop);
            }
        }
        catch (ChannelClosedException)
        {
            // The worker closed the connection or said it is done: the batch it did not acknowledge is sent again next time.
        }
    }

    private void WriteBatch(Database database, List<ChangeRecord> batch, IReadOnlyList<FieldPath> includes)
    {
        foreach (ChangeRecord change in batch)
        {
            Write(static (w, json) =>
            {
                w.WriteStartObject();
                w.WriteString("Type"u8, "Data"u8);
                w.WritePropertyName("Data"u8);
                w.WriteRawValue(json, skipInputValidation: true);
                w.WriteEndObject();
            }, change.Json!);
        }

        if (includes.Count > 0)
            WriteIncludes(database, batch, includes);
        Write(static (w, _) => w.WriteRawValue("{\"Type\":\"EndOfBatch\"}"u8), 0);
    }

    /// <summary>Writes the <c>Includes</c> message: the documents the query's <c>include</c> paths name in the batch, once each.</summary>
    private void WriteIncludes(Database database, List<ChangeRecord> batch, IReadOnlyList<FieldPath> includes)
    {
        var ids = new List<string>();
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (ChangeRecord change in batch)
        {
            using JsonDocument document = JsonDocument.Parse(change.Json);
            foreach (FieldPath path in includes)
            {
                foreach (JsonElement value in path.Values(document.RootElement))
                {
                    if (value.ValueKind == JsonValueKind.String && value.GetString() is { Length: > 0 } id && seen.Add(id))
                        ids.Add(id);
                }
            }
        }

        if (ids.Count == 0 || !database.TryEnter())
            return;
        try
        {
            using DocumentReader reader = database.Store.OpenReader();
            _writer.Reset(Output);
            _writer.WriteStartObject();
            _writer.WriteString("Type"u8, "Includes"u8);
            _writer.WriteStartObject("Includes"u8);
            foreach (string id in ids)
            {
                if (id.Length > DocumentIds.MaxIdBytes || !reader.TryGet(id, out Document document))
                    continue;
                _writer.WritePropertyName(document.IdString);
                _writer.WriteRawValue(document.Json, skipInputValidation: true);
            }

            _writer.WriteEndObject();
            _writer.WriteEndObject();
            _writer.Flush();
        }
        finally
        {
            database.Exit();
        }
    }
}
